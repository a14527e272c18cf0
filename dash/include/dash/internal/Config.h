// DASH's configuration header, for programs (and DASH's own tests) that include it by path:
// the architecture, platform and compiler macros DASH defines, set from the compiler's own
// predefined macros; nothing here changes this library's behaviour.
//
// | macro                              | when                                          |
// |------------------------------------|-----------------------------------------------|
// | DASH__ARCH__ARCH_X86_64            | x86-64                                        |
// | DASH__ARCH__ARCH_ARM, _ARCH_ARMV8  | AArch64                                       |
// | DASH__ARCH__ARCH_64 / _ARCH_32     | 64-bit / 32-bit pointers                      |
// | DASH__ARCH__HAS_CAS, _HAS_CAS_64   | the machine has a (64-bit) compare-and-swap   |
// | DASH__ARCH__CACHE_LINE_SIZE        | 64 (bytes)                                    |
// | DASH__PLATFORM__LINUX, _POSIX      | Linux; any POSIX system                       |
// | DASH__PLATFORM__OSX                | macOS                                         |
// | DASH_ENABLE_OPENMP                 | compiled with OpenMP (_OPENMP)                |
// | DASH_COMPILER_ID                   | "gcc-12.2.0", "clang-15.0.6", ...             |
// | DASH_MPI_IMPL_ID                   | the MPI the library was built with (openmpi,  |
// |                                    | mpich; <dash/Version.h>)                      |
#ifndef DASH__INTERNAL__CONFIG_H_
#define DASH__INTERNAL__CONFIG_H_

#include <dash/Version.h>
#include <dash/internal/Macro.h>

#if defined(__x86_64__)
#define DASH__ARCH__ARCH_X86_64
#define DASH__ARCH__ARCH_X86
#define DASH__ARCH__HAS_CAS
#define DASH__ARCH__HAS_CAS_64
#elif defined(__aarch64__)
#define DASH__ARCH__ARCH_ARM
#define DASH__ARCH__ARCH_ARMV8
#define DASH__ARCH__HAS_CAS
#define DASH__ARCH__HAS_CAS_64
#endif

#if defined(__LP64__) || defined(_LP64)
#define DASH__ARCH__ARCH_64
#else
#define DASH__ARCH__ARCH_32
#endif

#define DASH__ARCH__CACHE_LINE_SIZE 64

#if defined(__linux__)
#define DASH__PLATFORM__LINUX
#endif
#if defined(__APPLE__) && defined(__MACH__)
#define DASH__PLATFORM__OSX
#endif
#if defined(__unix__) || defined(__APPLE__)
#define DASH__PLATFORM__POSIX
#endif

#if defined(_OPENMP) && !defined(DASH_ENABLE_OPENMP)
#define DASH_ENABLE_OPENMP
#endif

#if defined(__clang__)
#define DASH_COMPILER_ID                                                                     \
  "clang-" dash__toxstr(__clang_major__) "." dash__toxstr(__clang_minor__) "." dash__toxstr( \
      __clang_patchlevel__)
#elif defined(__GNUC__)
#define DASH_COMPILER_ID                                                           \
  "gcc-" dash__toxstr(__GNUC__) "." dash__toxstr(__GNUC_MINOR__) "." dash__toxstr( \
      __GNUC_PATCHLEVEL__)
#else
#define DASH_COMPILER_ID "unknown"
#endif

#endif  // DASH__INTERNAL__CONFIG_H_
