// internal::given_t<T>: T in a parameter where it must be given, not deduced (C++20's
// std::type_identity_t), so that a call's other arguments fix T and a literal converts to it.
// Compile time.
#ifndef DASH__INTERNAL__GIVEN_H_
#define DASH__INTERNAL__GIVEN_H_

namespace dash {
namespace internal {

template <class T>
struct given {
  using type = T;
};
template <class T>
using given_t = typename given<T>::type;

}  // namespace internal
}  // namespace dash

#endif  // DASH__INTERNAL__GIVEN_H_
