/* serial_tracer: the particles example's model traced by one process, with
 * no blocks, no library and no code shared with examples/particles. The
 * particles tests compare the example's result line with this program's
 * and with the checksums pinned in examples/CMakeLists.txt, so a particle
 * lost, duplicated or corrupted on its way between blocks cannot go
 * unnoticed even when every configuration of the example agrees.
 *
 *   serial_tracer [--seeds S] [--max-steps N] [--step-size H]
 *                 [--seeding volume|inflow]
 * prints "time_s=<seconds> particles=<retired> checksum=<16 hex digits>".
 *
 * The model, written down from the description in workloads/particles/particles.h (the
 * floating-point expressions are evaluated in the order written here, which
 * the checksum depends on bit for bit):
 *   velocity   v(p) = (1 + A (sin 2 pi z + cos 2 pi y),
 *                      A (sin 2 pi x + cos 2 pi z),
 *                      A (sin 2 pi y + cos 2 pi x)),  A = 0.3,
 *              2 pi = 6.283185307179586
 *   RK4        k1 = v(p), k2 = v(p + (0.5 h) k1), k3 = v(p + (0.5 h) k2),
 *              k4 = v(p + h k3),
 *              p' = p + (h / 6) (((k1 + 2 k2) + 2 k3) + k4), per coordinate
 *   seeds      lattice (i, j, k) of S^3 points at ((i + 1/2) / S * D,
 *              (j + 1/2) / S, (k + 1/2) / S), D = 1 (volume) or 1/64
 *              (inflow); id (i S + j) S + k
 *   retire     when a coordinate leaves [0, 1) or after N steps
 *   checksum   sum mod 2^64 over the retired particles of
 *              h = f(id * 0x9e3779b97f4a7c15 + steps); h = f(h ^ bits(c))
 *              for c = x, y, z, where f is the splitmix64 finaliser.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const double kSwirlAmplitude = 0.3;
static const double kFullTurn = 6.283185307179586;

struct config {
  long seeds;
  long max_steps;
  double step_size;
  double inflow_depth; /* 1 for volume seeding */
};

static void field(const double p[3], double v[3]) {
  double s[3], c[3];
  for (int d = 0; d < 3; ++d) {
    s[d] = sin(kFullTurn * p[d]);
    c[d] = cos(kFullTurn * p[d]);
  }
  v[0] = 1.0 + kSwirlAmplitude * (s[2] + c[1]);
  v[1] = kSwirlAmplitude * (s[0] + c[2]);
  v[2] = kSwirlAmplitude * (s[1] + c[0]);
}

static void runge_kutta(double p[3], double h) {
  double k[4][3], trial[3];
  field(p, k[0]);
  for (int d = 0; d < 3; ++d) trial[d] = p[d] + 0.5 * h * k[0][d];
  field(trial, k[1]);
  for (int d = 0; d < 3; ++d) trial[d] = p[d] + 0.5 * h * k[1][d];
  field(trial, k[2]);
  for (int d = 0; d < 3; ++d) trial[d] = p[d] + h * k[2][d];
  field(trial, k[3]);
  for (int d = 0; d < 3; ++d)
    p[d] = p[d] + h / 6.0 * (k[0][d] + 2.0 * k[1][d] + 2.0 * k[2][d] + k[3][d]);
}

static uint64_t finalise(uint64_t z) {
  z ^= z >> 30;
  z *= UINT64_C(0xbf58476d1ce4e5b9);
  z ^= z >> 27;
  z *= UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static uint64_t fingerprint(int64_t id, long steps, const double p[3]) {
  uint64_t h = finalise((uint64_t)id * UINT64_C(0x9e3779b97f4a7c15) + (uint64_t)steps);
  for (int d = 0; d < 3; ++d) {
    uint64_t bits;
    memcpy(&bits, &p[d], sizeof bits);
    h = finalise(h ^ bits);
  }
  return h;
}

static int inside(const double p[3]) {
  for (int d = 0; d < 3; ++d)
    if (!(p[d] >= 0.0 && p[d] < 1.0)) return 0;
  return 1;
}

static void usage(FILE* out) {
  fprintf(out,
          "usage: serial_tracer [--seeds S] [--max-steps N] [--step-size H]\n"
          "                     [--seeding volume|inflow]\n"
          "Traces the particles example's model on one process; prints\n"
          "  time_s=<seconds> particles=<retired> checksum=<hex>\n");
}

static long whole_number(const char* option, const char* text, long least) {
  char* end = NULL;
  long value = strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value < least) {
    fprintf(stderr, "error: %s: '%s' is not an integer >= %ld\n", option, text, least);
    usage(stderr);
    exit(2);
  }
  return value;
}

static void parse(int argc, char** argv, struct config* c) {
  for (int i = 1; i < argc; ++i) {
    const char* option = argv[i];
    if (strcmp(option, "--help") == 0) {
      usage(stdout);
      exit(0);
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "error: %s needs a value\n", option);
      usage(stderr);
      exit(2);
    }
    const char* value = argv[++i];
    if (strcmp(option, "--seeds") == 0) {
      c->seeds = whole_number(option, value, 1);
    } else if (strcmp(option, "--max-steps") == 0) {
      c->max_steps = whole_number(option, value, 0);
    } else if (strcmp(option, "--step-size") == 0) {
      char* end = NULL;
      c->step_size = strtod(value, &end);
      if (*end != '\0' || !(c->step_size > 0 && c->step_size <= 1)) {
        fprintf(stderr, "error: --step-size: '%s' is not in (0, 1]\n", value);
        exit(2);
      }
    } else if (strcmp(option, "--seeding") == 0 && strcmp(value, "volume") == 0) {
      c->inflow_depth = 1.0;
    } else if (strcmp(option, "--seeding") == 0 && strcmp(value, "inflow") == 0) {
      c->inflow_depth = 1.0 / 64;
    } else {
      fprintf(stderr, "error: unknown option or value '%s %s'\n", option, value);
      usage(stderr);
      exit(2);
    }
  }
}

int main(int argc, char** argv) {
  struct config c = {48, 2000, 0.01, 1.0};
  parse(argc, argv, &c);
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  uint64_t checksum = 0;
  int64_t retired = 0;
  const double s = (double)c.seeds;
  for (long i = 0; i < c.seeds; ++i)
    for (long j = 0; j < c.seeds; ++j)
      for (long k = 0; k < c.seeds; ++k) {
        double p[3] = {(i + 0.5) / s * c.inflow_depth, (j + 0.5) / s * 1.0, (k + 0.5) / s * 1.0};
        long steps = 0;
        while (inside(p) && steps < c.max_steps) {
          runge_kutta(p, c.step_size);
          ++steps;
        }
        checksum += fingerprint((i * c.seeds + j) * c.seeds + k, steps, p);
        ++retired;
      }
  clock_gettime(CLOCK_MONOTONIC, &end);
  const double seconds = (double)(end.tv_sec - start.tv_sec) + 1e-9 * (end.tv_nsec - start.tv_nsec);
  printf("time_s=%.6f particles=%" PRId64 " checksum=%016" PRIx64 "\n", seconds, retired, checksum);
  return 0;
}
