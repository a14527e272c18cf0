// dash::LocalListRef: the calling unit's part of a dash::List (list.local):
// its nodes in the order pushed, each linked to its local neighbours. All
// calls are local; push_back takes a new bucket of the list's buffer size
// from its global memory when the unit's capacity is used up.
#ifndef DASH__LIST__LOCAL_LIST_REF_H_
#define DASH__LIST__LOCAL_LIST_REF_H_

#include <dash/Exception.h>
#include <dash/Types.h>

#include <cstddef>
#include <type_traits>

namespace dash {

template <class T, class LMemSpace>
class List;

template <class T, class LMemSpace>
class LocalListRef {
  using list_type = List<T, LMemSpace>;

 public:
  using value_type = T;
  using index_type = default_index_t;
  using size_type = std::make_unsigned_t<index_type>;
  using difference_type = index_type;
  using node_type = typename list_type::node_type;
  using iterator = typename list_type::local_iterator;
  using const_iterator = typename list_type::const_local_iterator;
  using reference = T&;
  using const_reference = const T&;

  explicit LocalListRef(list_type* list) : list_(list) {}

  // The unit's nodes (dereferencing gives a node: .value, .lprev, .lnext).
  iterator begin() const noexcept { return list_->lbegin(); }
  iterator end() const noexcept { return list_->lend(); }
  size_type size() const noexcept { return list_->lsize(); }
  bool empty() const noexcept { return size() == 0; }

  // Appends value to the unit's list. Local; throws what growing the
  // list's memory throws (dash::exception::OutOfMemory).
  void push_back(const value_type& value) {
    auto& mem = list_->memory("dash::List::local.push_back");
    const size_type old_size = list_->lsize_;
    if (old_size == mem.local_size()) mem.grow(list_->local_buffer_size_);
    node_type* node = &*(mem.lbegin() + static_cast<index_type>(old_size));
    node_type* prev = old_size > 0 ? node_at(old_size - 1) : nullptr;
    *node = node_type{};
    node->value = value;
    node->lprev = prev;
    if (prev != nullptr) prev->lnext = node;
    ++list_->lsize_;
  }
  // Removes the unit's last element (its memory stays for the next
  // push_back). Local; throws dash::exception::InvalidArgument if empty.
  void pop_back() {
    if (empty()) throw exception::InvalidArgument("dash::List::local.pop_back: the list is empty");
    --list_->lsize_;
    if (list_->lsize_ > 0) node_at(list_->lsize_ - 1)->lnext = nullptr;
  }
  // The unit's first / last element. Local; throws
  // dash::exception::InvalidArgument if empty.
  reference front() { return checked_node(0, "front")->value; }
  reference back() { return checked_node(size() - 1, "back")->value; }

 private:
  node_type* node_at(size_type i) const {
    return &*(list_->memory("dash::List::local").lbegin() + static_cast<index_type>(i));
  }
  node_type* checked_node(size_type i, const char* what) const {
    if (empty())
      throw exception::InvalidArgument(std::string("dash::List::local.") + what +
                                       ": the list is empty");
    return node_at(i);
  }

  list_type* list_;
};

}  // namespace dash

#endif  // DASH__LIST__LOCAL_LIST_REF_H_
