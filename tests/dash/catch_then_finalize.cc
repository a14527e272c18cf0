// A plain program (not the shared test main, which finalizes by itself): unit 0 alone throws
// inside a scope holding an array, catches the exception and calls dash::finalize. The other
// units keep their handle of that array (moved out of the scope) and call dash::finalize too.
// Unit 0's array starts no collective while unwinding; dash::finalize (dart_exit) then frees
// the memory on every unit together. Exits 0 on every unit when the values were right and
// nothing hung (CTest's timeout catches a hang).
#include <dash/Array.h>
#include <dash/Init.h>

#include <cstdio>
#include <memory>
#include <stdexcept>

int main(int argc, char** argv) {
  dash::init(&argc, &argv);
  const int me = dash::myid().id;
  const long n = 4 * static_cast<long>(dash::size());
  int errors = 0;
  std::unique_ptr<dash::Array<long>> kept;
  try {
    dash::Array<long> a(n);
    for (long i = 0; i < static_cast<long>(a.lsize()); ++i) a.local[i] = me * 100 + i;
    a.barrier();
    for (long i = 0; i < n; ++i) {
      const long owner = i / (n / static_cast<long>(dash::size()));
      if (static_cast<long>(a[i]) != owner * 100 + i % 4) ++errors;
    }
    a.barrier();
    if (me == 0) throw std::runtime_error("unit 0 fails alone");
    kept = std::make_unique<dash::Array<long>>(std::move(a));
  } catch (const std::runtime_error& e) {
    std::printf("unit %d caught: %s\n", me, e.what());
  }
  dash::finalize();
  kept.reset();  // after finalize: frees nothing
  if (errors != 0) std::printf("unit %d: %d wrong values\n", me, errors);
  return errors == 0 ? 0 : 1;
}
