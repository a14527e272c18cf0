// DASH's header <dash/Container.h>, for programs that include it by path: the containers.
#ifndef DASH__CONTAINER_H_
#define DASH__CONTAINER_H_

#include <dash/Array.h>
#include <dash/Coarray.h>
#include <dash/Matrix.h>
#include <dash/Shared.h>
#include <dash/UnorderedMap.h>

#endif  // DASH__CONTAINER_H_
