// dash::UniversalMember<T>: a member that refers to an object given as an lvalue and owns one
// given as an rvalue, so a class can take "a container or a temporary" in one constructor
// without copying either (DASH's name; views hold their origin this way).
//
// | made from              | holds                                              |
// |------------------------|----------------------------------------------------|
// | an lvalue T& / const T& | a reference: reads and writes reach that object   |
// | an rvalue T&&           | the value, moved into a shared heap object         |
//
// Copies of a UniversalMember share what it holds (the referred object or the owned value):
// copying never copies a T, so T may be neither copyable nor movable when given as an lvalue.
// Reading and writing are local and cost an indirection; making one from an rvalue allocates
// once.
#ifndef DASH__UTIL__UNIVERSAL_MEMBER_H_
#define DASH__UTIL__UNIVERSAL_MEMBER_H_

#include <memory>
#include <type_traits>
#include <utility>

namespace dash {

template <class T>
class UniversalMember {
  static_assert(!std::is_reference<T>::value, "dash::UniversalMember<T>: T is a value type");

 public:
  using value_type = T;

  // Refers to value (which must outlive every copy of this member).
  explicit UniversalMember(T& value) : held_(std::shared_ptr<T>(), &value) {}
  // Refers to a const value; writing through this member is the caller's contract to avoid.
  explicit UniversalMember(const T& value) : held_(std::shared_ptr<T>(), const_cast<T*>(&value)) {}
  // Owns value, moved into a heap object shared by this member's copies (one allocation).
  explicit UniversalMember(T&& value) : held_(std::make_shared<T>(std::move(value))) {}

  UniversalMember(const UniversalMember&) = default;
  UniversalMember(UniversalMember&&) = default;
  UniversalMember& operator=(const UniversalMember&) = default;
  UniversalMember& operator=(UniversalMember&&) = default;

  // Assigns to the held object (the referred one or the owned value).
  UniversalMember& operator=(T&& value) {
    *held_ = std::move(value);
    return *this;
  }
  UniversalMember& operator=(const T& value) {
    *held_ = value;
    return *this;
  }

  // The held object.
  operator T&() { return *held_; }
  operator const T&() const { return *held_; }
  T& get() { return *held_; }
  const T& get() const { return *held_; }
  T* operator->() { return held_.get(); }
  const T* operator->() const { return held_.get(); }

 private:
  // A referred object sits in a pointer that owns nothing (the aliasing constructor of an empty
  // shared_ptr); an owned one in its own control block.
  std::shared_ptr<T> held_;
};

}  // namespace dash

#endif  // DASH__UTIL__UNIVERSAL_MEMBER_H_
