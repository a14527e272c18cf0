// DASH's stand-in for C++17's std::byte; with C++17 it is <cstddef> itself.
#ifndef CPP17__CSTDDEF_H_
#define CPP17__CSTDDEF_H_

#include <cstddef>

#endif  // CPP17__CSTDDEF_H_
