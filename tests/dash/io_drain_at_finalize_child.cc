// A program that saves through the burst buffer and never calls dash::io::drain, so the drain
// happens at dash::finalize; under DASH_IO_TEST_FAIL_DRAIN=1 it fails there. Usage:
//   io_drain_at_finalize_child PATH     (DASH_IO_NODE_DIR: the node-local directory)
// Prints "unit U: finalize failed: <what>" and exits 3 if dash::finalize throws, else
// "unit U: finalize returned" and exits 0.
#include <dash/Array.h>
#include <dash/Init.h>
#include <dash/io/Save.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
  dash::init(&argc, &argv);
  const int me = int(dash::myid().id);
  if (argc != 2) {
    std::fprintf(stderr, "usage: io_drain_at_finalize_child PATH\n");
    dash::finalize();
    return 2;
  }
  {
    dash::Array<std::int64_t> a(10000);
    std::fill(a.lbegin(), a.lend(), std::int64_t(me) + 1);
    a.barrier();
    dash::io::IoSettings settings;
    settings.burst_buffer = true;
    dash::io::save(a, argv[1], settings);
  }
  try {
    dash::finalize();
  } catch (const std::exception& e) {
    std::printf("unit %d: finalize failed: %s\n", me, e.what());
    return 3;
  }
  std::printf("unit %d: finalize returned\n", me);
  return 0;
}
