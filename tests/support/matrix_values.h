// Test helpers for matrices: a value per global cell, and every unit's local part filled with
// it through the local view (then a barrier), so that any unit can check any element.
#ifndef DASH_TESTS_SUPPORT_MATRIX_VALUES_H_
#define DASH_TESTS_SUPPORT_MATRIX_VALUES_H_

namespace dash_test {

// Value stored at global coordinates (r, c).
inline long MatrixValue(long r, long c) { return 10000 * r + c; }

// Fills every unit's local part of the 2-D matrix m with MatrixValue(global coords).
// Collective (ends with m.barrier()).
template <class M>
void FillLocalWithValues(M& m) {
  auto lv = m.local.view();
  long pos = 0;
  for (auto it = lv.begin(); it != lv.end(); ++it, ++pos) {
    auto g = lv.global_coords(pos);
    *it = MatrixValue(g[0], g[1]);
  }
  m.barrier();
}

}  // namespace dash_test

#endif  // DASH_TESTS_SUPPORT_MATRIX_VALUES_H_
