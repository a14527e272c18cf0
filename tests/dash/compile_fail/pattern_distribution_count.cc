// Must not compile: a 2-D pattern given one Distribution (DASH's variadic
// form takes one per dimension, or none).
#include <dash/Matrix.h>

void make() { dash::Matrix<int, 2> m(8, 4, dash::TILE(2)); }
