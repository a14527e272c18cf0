// Must NOT compile: the calling unit's part of a rectangle under a
// ShiftTilePattern is not a rectangle, so dash::local(view) refuses it with a
// readable message. Registered in CTest (message matched).
#include <dash/Matrix.h>
#include <dash/view/ViewFunctions.h>

int main() {
  dash::Matrix<int, 2, dash::default_index_t, dash::ShiftTilePattern<2>> m(8, 8);
  auto l = dash::local(m.view());
  return int(l.size());
}
