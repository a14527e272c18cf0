// dash::BlocksView: what dash::blocks returns: the pattern blocks a view touches, each cut to
// the view, as a random-access range of views (global blocks: GlobView; blocks of a local view
// and dash::local of global blocks: LocalView), with each block's index and the range the
// blocks were taken of (its domain).
//
//   size(), b[i], begin()/end()   the blocks, in block-grid order          local
//   block_index(i)                global blocks: index in the pattern's    local
//                                 block grid; blocks of a local view: in
//                                 the unit's local block grid
//   domain()                      the range the blocks were taken of       local
//
// The blocks are computed once, when the range is made (O(number of blocks)); ranges and
// their iterators share them, so iterators outlive the range.
#ifndef DASH__VIEW__BLOCKS_VIEW_H_
#define DASH__VIEW__BLOCKS_VIEW_H_

#include <dash/internal/BoundsCheck.h>
#include <dash/iterator/internal/PositionIterator.h>
#include <dash/view/internal/ViewKinds.h>

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {

template <class BlockT, class DomainT>
class BlocksView {
  struct Blocks {
    std::vector<BlockT> views;
    std::vector<typename BlockT::index_type> indices;
  };

 public:
  using value_type = BlockT;
  using domain_type = DomainT;
  using index_type = typename BlockT::index_type;
  using size_type = std::size_t;
  using pattern_type = typename BlockT::pattern_type;
  using rank = std::integral_constant<dim_t, BlockT::ndim()>;

  class iterator : public internal::PositionIterator<iterator, std::ptrdiff_t> {
    using Base = internal::PositionIterator<iterator, std::ptrdiff_t>;

   public:
    using value_type = BlockT;
    using reference = const BlockT&;
    using pointer = const BlockT*;
    iterator() = default;
    iterator(std::shared_ptr<const Blocks> blocks, std::ptrdiff_t pos)
        : Base(pos), blocks_(std::move(blocks)) {}
    const BlockT& operator*() const { return blocks_->views[std::size_t(this->pos_)]; }
    const BlockT* operator->() const { return &**this; }
    const BlockT& operator[](std::ptrdiff_t n) const {
      return blocks_->views[std::size_t(this->pos_ + n)];
    }

   private:
    std::shared_ptr<const Blocks> blocks_;
  };
  using const_iterator = iterator;

  // Blocks `views` with their block indices, taken of `domain` of pattern `pattern`.
  BlocksView(std::vector<BlockT> views, std::vector<index_type> indices,
             const pattern_type* pattern, const internal::DomainStore<DomainT>& domain)
      : blocks_(std::make_shared<const Blocks>(Blocks{std::move(views), std::move(indices)})),
        pattern_(pattern),
        domain_(domain) {}

  static constexpr dim_t ndim() { return BlockT::ndim(); }
  size_type size() const { return blocks_->views.size(); }
  bool empty() const { return size() == 0; }
  // Block i; checked against size() under DASH_CHECK_BOUNDS. Local.
  const BlockT& operator[](size_type i) const {
    if constexpr (internal::bounds_checked)
      internal::check_index("dash::BlocksView::operator[]", i, size());
    return blocks_->views[i];
  }
  iterator begin() const { return iterator(blocks_, 0); }
  iterator end() const { return iterator(blocks_, std::ptrdiff_t(size())); }
  // Index of block i in the block grid (see the file comment); block_index(size()) is one
  // past the last block's (0 for no blocks), as dash::index(blocks) reads at its end. Local.
  index_type block_index(size_type i) const {
    if (i < size()) return blocks_->indices[i];
    return empty() ? 0 : blocks_->indices.back() + 1;
  }
  const pattern_type& pattern() const { return *pattern_; }
  // The range the blocks were taken of (a container: by reference). Local.
  decltype(auto) domain() const { return domain_.get(); }

 private:
  std::shared_ptr<const Blocks> blocks_;
  const pattern_type* pattern_;
  internal::DomainStore<DomainT> domain_;
};

}  // namespace dash

#endif  // DASH__VIEW__BLOCKS_VIEW_H_
