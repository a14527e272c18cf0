// Must not compile: DASH's variadic pattern arguments start with all N
// extents; here a Distribution comes before the second extent.
#include <dash/Pattern.h>

void make() { dash::BlockPattern<2> p(8, dash::BLOCKED, 4); }
