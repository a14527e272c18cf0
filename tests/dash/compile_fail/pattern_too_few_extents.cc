// Must not compile: DASH's variadic pattern arguments hold one extent per
// dimension (interleaved with the Distributions or not); here a 2-D pattern
// gets one extent and two Distributions.
#include <dash/Pattern.h>

void make() { dash::BlockPattern<2> p(8, dash::BLOCKED, dash::NONE); }
