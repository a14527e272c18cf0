// DASH: PGAS distributed containers for C++ on MPI-3. Include this header.
#ifndef LIBDASH_H_
#define LIBDASH_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Types.h>

#endif  // LIBDASH_H_
