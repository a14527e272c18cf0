/* C consumer of an installed dash: prints "consumer_c: unit <i> of <n>" on every unit. */
#include <dart/dart.h>
#include <stdio.h>

int main(int argc, char** argv) {
  if (dart_init(&argc, &argv) != DART_OK) {
    fprintf(stderr, "consumer_c: dart_init failed\n");
    return 1;
  }
  dart_global_unit_t myid;
  size_t nunits = 0;
  if (dart_myid(&myid) != DART_OK || dart_size(&nunits) != DART_OK) {
    fprintf(stderr, "consumer_c: dart_myid/dart_size failed\n");
    dart_exit();
    return 1;
  }
  printf("consumer_c: unit %d of %zu\n", (int)myid.id, nunits);
  return dart_exit() == DART_OK ? 0 : 1;
}
