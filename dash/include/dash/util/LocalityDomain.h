// DASH's include path for dash::util::LocalityDomain: see TeamLocality.h.
#ifndef DASH__UTIL__LOCALITY_DOMAIN_H_
#define DASH__UTIL__LOCALITY_DOMAIN_H_

#include <dash/util/TeamLocality.h>

#endif
