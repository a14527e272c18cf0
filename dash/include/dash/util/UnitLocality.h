// DASH's include path for dash::util::UnitLocality: see TeamLocality.h.
#ifndef DASH__UTIL__UNIT_LOCALITY_H_
#define DASH__UTIL__UNIT_LOCALITY_H_

#include <dash/util/TeamLocality.h>

#endif
