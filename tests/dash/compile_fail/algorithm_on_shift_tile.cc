// Must NOT compile: the algorithms work on the calling unit's part of a range
// as native runs, which a ShiftTilePattern cannot describe as a rectangle;
// dash::fill refuses it with a readable message. Registered in CTest
// (message matched).
#include <dash/Matrix.h>
#include <dash/algorithm/Fill.h>

int main() {
  dash::Matrix<int, 2, dash::default_index_t, dash::ShiftTilePattern<2>> m(8, 8);
  dash::fill(m.begin(), m.end(), 1);
  return 0;
}
