// dash::typestr: the readable (demangled) name of a type, under DASH's header path, for
// programs that print what they run on ("-- Pattern: " << dash::typestr(pattern)).
#ifndef DASH__META__TYPE_INFO_H_
#define DASH__META__TYPE_INFO_H_

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <typeinfo>

namespace dash {

namespace internal {

// The demangled form of a mangled type name, or the name itself where it does not demangle.
// Local; allocates the string.
inline std::string demangled_type_name(const char* mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(
      abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
  return status == 0 && name ? std::string(name.get()) : std::string(mangled);
}

}  // namespace internal

// Name of the dynamic type of obj, e.g. "dash::TilePattern<2, (dash::MemArrange)0, long>".
// Local; allocates the string.
template <class T>
std::string typestr(const T& obj) {
  return internal::demangled_type_name(typeid(obj).name());
}

// Name of type T. Local; allocates the string.
template <class T>
std::string typestr() {
  return internal::demangled_type_name(typeid(T).name());
}

}  // namespace dash

#endif  // DASH__META__TYPE_INFO_H_
