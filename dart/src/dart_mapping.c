/* Topology-aware unit remapping at start-up: balanced grid factorisation, Hilbert curve,
 * crossing metric, cost model and the remapping itself. Pure functions, no MPI.
 *
 * Vocabulary (see dart_mapping.h): grid positions are row-major (last dimension fastest); a
 * unit's key path is nkeys int64 values, top first; node_key indexes the node's key; an item
 * is a unit (or, on the coarse grid, a whole node); split[i] is the key level at which sorted
 * items i and i+1 first differ (nkeys: identical), so a cut after item i separates two
 * different groups of level split[i] (0 = top level, the biggest boundary).
 *
 * Remapping, pseudocode:
 *
 *   compute(mode, units, keys, node_key, dims):
 *     if mode == none: return identity
 *     order  <- units sorted by key path (stable: ties by original unit id)
 *     split  <- split levels of consecutive units of order
 *     layouts <- {}
 *     if mode == hilbert and ndims >= 2 and all dims equal 2^b:
 *       layouts <- { order[i] at the grid cell hilbert_coords(i), for every i }
 *     else if mode == hilbert and ndims == 1:
 *       layouts <- { order[i] at position i }                # the curve is the line
 *     else:                                                 # hierarchical (and the fallback
 *       if all nodes hold the same number c > 1 of units   # of hilbert on other extents)
 *          and there are at least 2 nodes:
 *         for every box shape B (B[d] divides dims[d], product c) with the fewest node
 *             crossings when nodes tile the grid with B (sum over d of (dims[d]/B[d] - 1) *
 *             nunits/dims[d], the face links between the boxes):
 *           coarse <- dims / B                               # one cell per node
 *           bisect(coarse box, the nodes in key order, split at node boundaries)
 *           for every node n at coarse cell x:
 *             bisect(box of shape B at x * B, the units of n in key order, split)
 *           layouts += that layout
 *       layouts += bisect(whole grid, order, split)
 *     best <- identity
 *     for L in layouts (in the order above):
 *       if score(L) < score(best) and periodic(L) <= periodic(identity): best <- L
 *     return best                     # used_identity = (best is the identity)
 *
 *   score(layout) = the vector (node crossings, C[0], C[1], ..., C[nkeys-1]) compared
 *     lexicographically, C[l] = links crossing at levels 0..l (summed from the top), links of
 *     the 2*ndims-point stencil, not periodic (dart__mapping_crossings). So the result never
 *     has more node crossings than the identity, and with as many, not more crossings at the
 *     first level (from the top) where the two differ. A layout with more node crossings than
 *     the identity under the periodic stencil is never taken either (codes with wrap-around
 *     halos must not lose).
 *
 *   bisect(box, items[lo, lo + count)):                     # count == volume(box)
 *     if count == 1: item lo sits at the box's only cell; return
 *     candidates <- every cut (d, k), 1 <= k < extent[d]: the low slab of k layers gets the
 *                   first L = k * count / extent[d] items
 *     keep those with count/4 <= L <= 3*count/4               # never empty: k = extent[d]/2
 *     pick the one with, in this order of priority,
 *       1. the biggest boundary: the smallest split[lo + L - 1]  (group before chassis before
 *          blade before node before core; "no boundary" last)
 *       2. the longest extent[d] (the smallest cut face)
 *       3. L nearest to count/2
 *       4. the earlier dimension d, 5. the smaller L
 *     bisect(low part of the box along d, items[lo, lo + L))
 *     bisect(high part of the box along d, items[lo + L, lo + count))
 *
 * The bisection keeps every group of a level that fits the balance window in a box of its
 * own; its leaf order is itself a space-filling order, so consecutive units (same node, same
 * blade) stay close. With uniform nodes the tiling layouts reach the minimal node-box
 * surface exactly; the bisection of the nodes over the coarse grid then orders the nodes by
 * blade, chassis and group.
 *
 * Costs: sorting O(n log n); each bisection O(n * ndims * log n) (every depth of the recursion
 * visits the extents of its boxes once); each score O(n * ndims * nkeys); at most
 * MAX_TILINGS + 1 layouts; memory O(n) (order, split, two layouts, positions). */
#include "dart_mapping.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dart_internal.h"

/* Most tied box shapes tried as node tilings (all of them in practice: 4 dims give at most
 * 4! orientations of one shape, times a few shapes of equal surface). */
#define MAX_TILINGS 64

/* ---- helpers ----------------------------------------------------------------------------- */

/* Checks ndims and dims and returns their product in *volume; false if invalid or larger
 * than INT_MAX. */
static bool check_grid(int ndims, const int* dims, int64_t* volume) {
  if (ndims < 1 || ndims > DART_MAPPING_MAX_DIMS || dims == NULL) return false;
  int64_t v = 1;
  for (int d = 0; d < ndims; ++d) {
    if (dims[d] < 1) return false;
    v *= dims[d];
    if (v > INT32_MAX) return false;
  }
  *volume = v;
  return true;
}

/* Row-major index of coords in dims. */
static int64_t row_major(int ndims, const int* dims, const int* coords) {
  int64_t index = 0;
  for (int d = 0; d < ndims; ++d) index = index * dims[d] + coords[d];
  return index;
}

/* Coordinates of row-major index in dims. */
static void coords_of(int ndims, const int* dims, int64_t index, int* coords) {
  for (int d = ndims - 1; d >= 0; --d) {
    coords[d] = (int)(index % dims[d]);
    index /= dims[d];
  }
}

/* First key at which the paths of units a and b differ; nkeys if identical. */
static int first_difference(int nkeys, const int64_t* keys, int a, int b) {
  const int64_t* ka = keys + (size_t)a * (size_t)nkeys;
  const int64_t* kb = keys + (size_t)b * (size_t)nkeys;
  for (int l = 0; l < nkeys; ++l) {
    if (ka[l] != kb[l]) return l;
  }
  return nkeys;
}

/* ---- balanced dims ----------------------------------------------------------------------- */

/* True if d^k >= n. */
static bool power_reaches(int64_t d, int k, int64_t n) {
  int64_t p = 1;
  for (int i = 0; i < k; ++i) {
    p *= d;
    if (p >= n) return true;
  }
  return p >= n;
}

/* Tries d as the largest of k factors of n: fills f[1..k-1] with the best factorisation of
 * n / d and accepts if its largest factor is at most d. */
static bool try_largest(int64_t n, int k, int64_t d, int* f);

/* f[0..k-1] = the lexicographically smallest non-increasing factorisation of n. The largest
 * factor is the smallest divisor d of n (d^k >= n) for which n / d splits into k-1 factors
 * none larger than d; the rest is then the best factorisation of n / d, whose largest factor
 * is the smallest possible, hence <= d. */
static void balanced(int64_t n, int k, int* f) {
  if (k == 1) {
    f[0] = (int)n;
    return;
  }
  int64_t root = 1;
  while ((root + 1) * (root + 1) <= n) ++root;
  for (int64_t i = 1; i <= root; ++i) {  // small divisors, ascending
    if (n % i == 0 && try_largest(n, k, i, f)) return;
  }
  for (int64_t i = root; i >= 1; --i) {  // their cofactors, ascending
    if (n % i == 0 && i * i != n && try_largest(n, k, n / i, f)) return;
  }
  f[0] = (int)n;  // not reached: d = n always succeeds
}

static bool try_largest(int64_t n, int k, int64_t d, int* f) {
  if (!power_reaches(d, k, n)) return false;
  balanced(n / d, k - 1, f + 1);
  if (f[1] > d) return false;
  f[0] = (int)d;
  return true;
}

dart_ret_t dart__balanced_dims(int nunits, int ndims, int* dims) {
  if (nunits < 1 || ndims < 1 || ndims > DART_BALANCED_DIMS_MAX || dims == NULL) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, "dart__balanced_dims",
                              "need nunits >= 1 (got %d) and 1 <= ndims <= %d (got %d)", nunits,
                              DART_BALANCED_DIMS_MAX, ndims);
  }
  balanced(nunits, ndims, dims);
  return DART_OK;
}

/* ---- Hilbert curve ------------------------------------------------------------------------
 *
 * The n-dimensional Hilbert curve through the cube of 2^m cells per side, after Butz's
 * construction in the form of Hamilton ("Compact Hilbert indices", 2006). The index has m
 * digits of n bits, most significant first; digit i selects one of the 2^n sub-cubes at
 * refinement level i. Within the current (rotated, reflected) sub-cube, the sub-cubes are
 * visited in Gray-code order gray(w) = w ^ (w >> 1), which moves one face at a time. The
 * orientation of the current cube is an entry corner e (bit mask) and a direction d (the axis
 * along which the curve leaves the entry corner); a label b of a sub-cube in the curve's own
 * frame becomes the real corner rotl(b, d + 1) ^ e, and back: rotr(b ^ e, d + 1). Sub-cube w
 * is entered at entry(w) = gray(2 * floor((w - 1) / 2)) (entry(0) = 0) and its direction
 * turns by dir(w) = trailing_ones(w - 1) for even w, trailing_ones(w) for odd w (dir(0) = 0),
 * both mod n; descending into sub-cube w updates e ^= rotl(entry(w), d + 1),
 * d = (d + dir(w) + 1) mod n. These choices make the exit corner of each sub-cube the face
 * neighbour of the next one's entry corner, so consecutive cells are face neighbours. */

static unsigned rotate_left(unsigned x, int r, int n) {
  unsigned mask = (1u << n) - 1;
  r %= n;
  if (r == 0) return x & mask;
  return ((x << r) | (x >> (n - r))) & mask;
}

static unsigned rotate_right(unsigned x, int r, int n) { return rotate_left(x, n - r % n, n); }

static unsigned gray(unsigned w) { return w ^ (w >> 1); }

static unsigned gray_inverse(unsigned g) {
  unsigned w = g;
  for (unsigned shift = 1; shift < 32; shift <<= 1) w ^= w >> shift;
  return w;
}

static int trailing_ones(unsigned w) {
  int count = 0;
  while (w & 1u) {
    ++count;
    w >>= 1;
  }
  return count;
}

static unsigned hilbert_entry(unsigned w) { return w == 0 ? 0 : gray(2 * ((w - 1) / 2)); }

static int hilbert_direction(unsigned w, int n) {
  if (w == 0) return 0;
  return (w % 2 == 0 ? trailing_ones(w - 1) : trailing_ones(w)) % n;
}

void dart__hilbert_coords(int ndims, int order_bits, uint64_t index, int* coords) {
  const int n = ndims;
  for (int j = 0; j < n; ++j) coords[j] = 0;
  unsigned e = 0;
  int d = 0;
  for (int i = order_bits - 1; i >= 0; --i) {
    unsigned w = (unsigned)(index >> ((uint64_t)i * (uint64_t)n)) & ((1u << n) - 1);
    unsigned corner = rotate_left(gray(w), d + 1, n) ^ e;
    for (int j = 0; j < n; ++j) coords[j] |= (int)((corner >> j) & 1u) << i;
    e ^= rotate_left(hilbert_entry(w), d + 1, n);
    d = (d + hilbert_direction(w, n) + 1) % n;
  }
}

uint64_t dart__hilbert_index(int ndims, int order_bits, const int* coords) {
  const int n = ndims;
  uint64_t index = 0;
  unsigned e = 0;
  int d = 0;
  for (int i = order_bits - 1; i >= 0; --i) {
    unsigned corner = 0;
    for (int j = 0; j < n; ++j) corner |= (unsigned)((coords[j] >> i) & 1) << j;
    unsigned w = gray_inverse(rotate_right(corner ^ e, d + 1, n));
    index = (index << n) | w;
    e ^= rotate_left(hilbert_entry(w), d + 1, n);
    d = (d + hilbert_direction(w, n) + 1) % n;
  }
  return index;
}

/* ---- stencil links and the metric -------------------------------------------------------- */

/* Offsets of the positive half of the stencil (first non-zero component +1), ndims entries
 * each; returns their number. */
static int stencil_offsets(int ndims, dart_stencil_t stencil,
                           int offsets[][DART_MAPPING_MAX_DIMS]) {
  int count = 0;
  if (stencil == DART_STENCIL_FACES) {
    for (int d = 0; d < ndims; ++d) {
      for (int j = 0; j < ndims; ++j) offsets[count][j] = j == d ? 1 : 0;
      ++count;
    }
    return count;
  }
  int total = 1;
  for (int d = 0; d < ndims; ++d) total *= 3;
  for (int code = 0; code < total; ++code) {
    int o[DART_MAPPING_MAX_DIMS];
    int c = code, first = 0;
    for (int d = ndims - 1; d >= 0; --d) {
      o[d] = c % 3 - 1;
      c /= 3;
    }
    for (int d = 0; d < ndims && first == 0; ++d) first = o[d];
    if (first != 1) continue;
    memcpy(offsets[count++], o, sizeof o);
  }
  return count;
}

#define MAX_OFFSETS 40 /* (3^4 - 1) / 2 */

/* Calls visit(ctx, p, q) for every link (p, q) of the stencil over the grid. */
typedef void (*link_visitor_t)(void* ctx, int64_t p, int64_t q);

static void for_each_link(int ndims, const int* dims, dart_stencil_t stencil, bool periodic,
                          link_visitor_t visit, void* ctx) {
  int offsets[MAX_OFFSETS][DART_MAPPING_MAX_DIMS];
  int noffsets = stencil_offsets(ndims, stencil, offsets);
  int64_t volume = 1;
  for (int d = 0; d < ndims; ++d) volume *= dims[d];
  int coords[DART_MAPPING_MAX_DIMS] = {0};
  for (int64_t p = 0; p < volume; ++p) {
    for (int o = 0; o < noffsets; ++o) {
      int q_coords[DART_MAPPING_MAX_DIMS];
      bool inside = true;
      for (int d = 0; d < ndims && inside; ++d) {
        int c = coords[d] + offsets[o][d];
        if (c < 0 || c >= dims[d]) {
          if (!periodic) inside = false;
          c = (c + dims[d]) % dims[d];
        }
        q_coords[d] = c;
      }
      if (!inside) continue;
      int64_t q = row_major(ndims, dims, q_coords);
      if (q != p) visit(ctx, p, q);
    }
    for (int d = ndims - 1; d >= 0; --d) {  // next row-major position
      if (++coords[d] < dims[d]) break;
      coords[d] = 0;
    }
  }
}

/* Checks the common arguments of the metric; logs and returns false if bad. */
static bool check_layout(const char* call, int nunits, int nkeys, const int64_t* keys, int ndims,
                         const int* dims, const int* unit_at, dart_stencil_t stencil) {
  int64_t volume = 0;
  if (nunits < 1 || nkeys < 1 || keys == NULL || unit_at == NULL) {
    dart__log(DART_LOG_ERROR, call, "need nunits >= 1, nkeys >= 1, keys and a layout");
    return false;
  }
  if (!check_grid(ndims, dims, &volume) || volume != nunits) {
    dart__log(DART_LOG_ERROR, call, "the grid (%d dims, 1..%d allowed) does not hold %d units",
              ndims, DART_MAPPING_MAX_DIMS, nunits);
    return false;
  }
  if (stencil != DART_STENCIL_FACES && stencil != DART_STENCIL_FULL) {
    dart__log(DART_LOG_ERROR, call, "unknown stencil %d", (int)stencil);
    return false;
  }
  unsigned char* seen = calloc((size_t)nunits, 1);
  if (seen == NULL) {
    dart__log(DART_LOG_ERROR, call, "out of memory");
    return false;
  }
  bool ok = true;
  for (int p = 0; p < nunits && ok; ++p) {
    int u = unit_at[p];
    ok = u >= 0 && u < nunits && !seen[u];
    if (ok) seen[u] = 1;
  }
  free(seen);
  if (!ok) dart__log(DART_LOG_ERROR, call, "the layout is not a permutation of the units");
  return ok;
}

typedef struct {
  int nkeys;
  const int64_t* keys;
  const int* unit_at;
  int64_t* crossings;
} crossings_ctx_t;

static void count_link(void* ctx_ptr, int64_t p, int64_t q) {
  crossings_ctx_t* ctx = ctx_ptr;
  ++ctx->crossings[first_difference(ctx->nkeys, ctx->keys, ctx->unit_at[p], ctx->unit_at[q])];
}

/* dart__mapping_crossings without argument checks. */
static void crossings_unchecked(int nkeys, const int64_t* keys, int ndims, const int* dims,
                                const int* unit_at, dart_stencil_t stencil, bool periodic,
                                int64_t* crossings) {
  for (int l = 0; l <= nkeys; ++l) crossings[l] = 0;
  crossings_ctx_t ctx = {nkeys, keys, unit_at, crossings};
  for_each_link(ndims, dims, stencil, periodic, count_link, &ctx);
}

dart_ret_t dart__mapping_crossings(int nunits, int nkeys, const int64_t* keys, int ndims,
                                   const int* dims, const int* unit_at, dart_stencil_t stencil,
                                   bool periodic, int64_t* crossings) {
  const char* call = "dart__mapping_crossings";
  if (!check_layout(call, nunits, nkeys, keys, ndims, dims, unit_at, stencil)) {
    return DART_ERR_INVAL;
  }
  if (crossings == NULL) return DART_LOG_ERROR_RET(DART_ERR_INVAL, call, "crossings is NULL");
  crossings_unchecked(nkeys, keys, ndims, dims, unit_at, stencil, periodic, crossings);
  return DART_OK;
}

int64_t dart__mapping_node_crossings(const int64_t* crossings, int node_key) {
  int64_t sum = 0;
  for (int l = 0; l <= node_key; ++l) sum += crossings[l];
  return sum;
}

typedef struct {
  int nkeys;
  const int64_t* keys;
  int node_key;
  const int* unit_at;
  const int* node_of;           /* per unit: its node, 0 .. nodes - 1 */
  const double* level_latency;  /* per first-difference level: latency of a message, us */
  const double* level_transfer; /* per first-difference level: bytes / bandwidth, us */
  double* unit_latency;         /* per unit: latencies of its messages, us */
  double* node_link;            /* per node: bytes leaving it through its network link, us */
  double* node_memory;          /* per node: bytes moved inside it, us */
} model_ctx_t;

static void add_message(void* ctx_ptr, int64_t p, int64_t q) {
  model_ctx_t* ctx = ctx_ptr;
  int u = ctx->unit_at[p], v = ctx->unit_at[q];
  int l = first_difference(ctx->nkeys, ctx->keys, u, v);
  ctx->unit_latency[u] += ctx->level_latency[l];  // u's message to v
  ctx->unit_latency[v] += ctx->level_latency[l];  // and v's to u
  if (l > ctx->node_key) {
    ctx->node_memory[ctx->node_of[u]] += 2 * ctx->level_transfer[l];
  } else {
    ctx->node_link[ctx->node_of[u]] += ctx->level_transfer[l];
    ctx->node_link[ctx->node_of[v]] += ctx->level_transfer[l];
  }
}

static void sort_by_keys(int nkeys, const int64_t* keys, int n, int* order, int* scratch);

/* node_of[u] = index of u's node (key path 0..node_key), numbered in key order; returns the
 * number of nodes, or -1 if memory runs out. */
static int number_nodes(int nunits, int nkeys, const int64_t* keys, int node_key, int* node_of) {
  int* order = malloc(sizeof(int) * (size_t)nunits);
  int* scratch = malloc(sizeof(int) * (size_t)nunits);
  if (order == NULL || scratch == NULL) {
    free(order);
    free(scratch);
    return -1;
  }
  for (int u = 0; u < nunits; ++u) order[u] = u;
  sort_by_keys(nkeys, keys, nunits, order, scratch);
  int nodes = 0;
  for (int i = 0; i < nunits; ++i) {
    if (i > 0 && first_difference(nkeys, keys, order[i - 1], order[i]) > node_key) {
      node_of[order[i]] = nodes - 1;
    } else {
      node_of[order[i]] = nodes++;
    }
  }
  free(order);
  free(scratch);
  return nodes;
}

dart_ret_t dart__mapping_model_us(int nunits, int nkeys, const int64_t* keys, int node_key,
                                  int ndims, const int* dims, const int* unit_at,
                                  dart_stencil_t stencil, bool periodic,
                                  const dart_link_cost_t* cost, double message_bytes,
                                  double* max_node_us, double* mean_node_us) {
  const char* call = "dart__mapping_model_us";
  if (!check_layout(call, nunits, nkeys, keys, ndims, dims, unit_at, stencil)) {
    return DART_ERR_INVAL;
  }
  if (node_key < 0 || node_key >= nkeys || cost == NULL || max_node_us == NULL ||
      !(message_bytes >= 0) || !isfinite(message_bytes)) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                              "need 0 <= node_key < nkeys (%d, %d), a cost ladder, a result "
                              "and a finite message size >= 0",
                              node_key, nkeys);
  }
  for (int j = 0; j <= node_key + 1; ++j) {
    if (!(cost[j].latency_us >= 0) || !isfinite(cost[j].latency_us) ||
        !(cost[j].bandwidth_GBps > 0) || !isfinite(cost[j].bandwidth_GBps)) {
      return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                                "cost[%d]: need latency >= 0 and bandwidth > 0, finite", j);
    }
  }
  double* level_latency = malloc(sizeof(double) * (size_t)(nkeys + 1));
  double* level_transfer = malloc(sizeof(double) * (size_t)(nkeys + 1));
  double* unit_latency = calloc((size_t)nunits, sizeof(double));
  double* node_link = calloc((size_t)nunits, sizeof(double));
  double* node_memory = calloc((size_t)nunits, sizeof(double));
  double* node_latency = calloc((size_t)nunits, sizeof(double));
  int* node_of = malloc(sizeof(int) * (size_t)nunits);
  int nodes = -1;
  if (level_latency && level_transfer && unit_latency && node_link && node_memory && node_latency &&
      node_of) {
    nodes = number_nodes(nunits, nkeys, keys, node_key, node_of);
  }
  dart_ret_t ret = DART_OK;
  if (nodes < 0) {
    ret = DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
    goto done;
  }
  for (int l = 0; l <= nkeys; ++l) {
    int j = l <= node_key ? node_key + 1 - l : 0;
    level_latency[l] = cost[j].latency_us;
    // bandwidth GB/s = 10^9 bytes/s = 10^3 bytes/us
    level_transfer[l] = message_bytes / (cost[j].bandwidth_GBps * 1e3);
  }
  model_ctx_t ctx = {.nkeys = nkeys,
                     .keys = keys,
                     .node_key = node_key,
                     .unit_at = unit_at,
                     .node_of = node_of,
                     .level_latency = level_latency,
                     .level_transfer = level_transfer,
                     .unit_latency = unit_latency,
                     .node_link = node_link,
                     .node_memory = node_memory};
  for_each_link(ndims, dims, stencil, periodic, add_message, &ctx);
  for (int u = 0; u < nunits; ++u) {
    if (unit_latency[u] > node_latency[node_of[u]]) node_latency[node_of[u]] = unit_latency[u];
  }
  double max = 0, sum = 0;
  for (int n = 0; n < nodes; ++n) {
    double bytes = node_link[n] > node_memory[n] ? node_link[n] : node_memory[n];
    double t = node_latency[n] + bytes;
    if (t > max) max = t;
    sum += t;
  }
  *max_node_us = max;
  if (mean_node_us != NULL) *mean_node_us = sum / nodes;
done:
  free(level_latency);
  free(level_transfer);
  free(unit_latency);
  free(node_link);
  free(node_memory);
  free(node_latency);
  free(node_of);
  return ret;
}

/* ---- mode -------------------------------------------------------------------------------- */

static const char* const mode_names[] = {"none", "hierarchical", "hilbert"};

bool dart__mapping_mode_parse(const char* text, dart_unit_mapping_t* mode) {
  if (text == NULL || mode == NULL) return false;
  for (int i = 0; i < 3; ++i) {
    if (strcasecmp(text, mode_names[i]) == 0) {
      *mode = (dart_unit_mapping_t)i;
      return true;
    }
  }
  return false;
}

const char* dart_unit_mapping_name(dart_unit_mapping_t mode) {
  return (int)mode >= 0 && (int)mode < 3 ? mode_names[mode] : "invalid";
}

/* ---- sorting by key path ----------------------------------------------------------------- */

/* True if unit a comes before unit b: smaller key path, ties by smaller id. */
static bool key_less(int nkeys, const int64_t* keys, int a, int b) {
  int l = first_difference(nkeys, keys, a, b);
  if (l == nkeys) return a < b;
  return keys[(size_t)a * (size_t)nkeys + (size_t)l] < keys[(size_t)b * (size_t)nkeys + (size_t)l];
}

/* Sorts order[0..n) (unit ids) by key path; bottom-up merge sort with scratch[n]. */
static void sort_by_keys(int nkeys, const int64_t* keys, int n, int* order, int* scratch) {
  int* from = order;
  int* to = scratch;
  for (int width = 1; width < n; width *= 2) {
    for (int lo = 0; lo < n; lo += 2 * width) {
      int mid = lo + width < n ? lo + width : n;
      int hi = lo + 2 * width < n ? lo + 2 * width : n;
      int i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        to[k++] = key_less(nkeys, keys, from[j], from[i]) ? from[j++] : from[i++];
      }
      while (i < mid) to[k++] = from[i++];
      while (j < hi) to[k++] = from[j++];
    }
    int* t = from;
    from = to;
    to = t;
  }
  if (from != order) memcpy(order, from, sizeof(int) * (size_t)n);
}

/* ---- recursive bisection ----------------------------------------------------------------- */

typedef struct {
  int ndims;
  const int* grid;  /* extents of the grid positions are numbered in */
  const int* split; /* split[i]: level between items i and i + 1 */
  int* pos_of_item; /* out: row-major position of every item */
} bisect_ctx_t;

typedef struct {
  int origin[DART_MAPPING_MAX_DIMS];
  int extent[DART_MAPPING_MAX_DIMS];
} box_t;

/* Places items [lo, lo + count) into box (count == its volume); see the top of the file. */
static void bisect(const bisect_ctx_t* ctx, box_t box, int lo, int64_t count) {
  if (count == 1) {
    ctx->pos_of_item[lo] = (int)row_major(ctx->ndims, ctx->grid, box.origin);
    return;
  }
  int best_d = -1, best_k = 0, best_level = 0;
  int64_t best_left = 0;
  for (int d = 0; d < ctx->ndims; ++d) {
    int extent = box.extent[d];
    if (extent < 2) continue;
    int64_t slab = count / extent;
    for (int k = 1; k < extent; ++k) {
      int64_t left = k * slab;
      if (4 * left < count || 4 * left > 3 * count) continue;
      int level = ctx->split[lo + left - 1];
      bool better;
      if (best_d < 0) {
        better = true;
      } else if (level != best_level) {
        better = level < best_level;
      } else if (extent != box.extent[best_d]) {
        better = extent > box.extent[best_d];
      } else {
        int64_t off = llabs(2 * left - count), best_off = llabs(2 * best_left - count);
        better = off < best_off;  // earlier d and smaller L win the remaining ties
      }
      if (better) {
        best_d = d;
        best_k = k;
        best_level = level;
        best_left = left;
      }
    }
  }
  // best_d >= 0: some extent e >= 2 (count >= 2), and k = e / 2 lies in the window.
  box_t low = box, high = box;
  low.extent[best_d] = best_k;
  high.origin[best_d] += best_k;
  high.extent[best_d] -= best_k;
  bisect(ctx, low, lo, best_left);
  bisect(ctx, high, (int)(lo + best_left), count - best_left);
}

/* ---- candidate layouts ------------------------------------------------------------------- */

typedef struct {
  int nunits, nkeys, node_key, ndims;
  const int64_t* keys;
  const int* dims;
  const int* order; /* units in key order */
  const int* split; /* split levels of order */
  int* pos;         /* scratch: position of every sorted item */
  int* coarse_pos;  /* scratch: coarse position of every node */
  int* coarse_split;
} mapping_ctx_t;

/* layout[pos[i]] = order[i]. */
static void layout_from_positions(const mapping_ctx_t* m, int* layout) {
  for (int i = 0; i < m->nunits; ++i) layout[m->pos[i]] = m->order[i];
}

/* The whole grid bisected over all units. */
static void layout_bisection(const mapping_ctx_t* m, int* layout) {
  bisect_ctx_t ctx = {m->ndims, m->dims, m->split, m->pos};
  box_t box;
  for (int d = 0; d < m->ndims; ++d) {
    box.origin[d] = 0;
    box.extent[d] = m->dims[d];
  }
  bisect(&ctx, box, 0, m->nunits);
  layout_from_positions(m, layout);
}

/* Nodes of c units as boxes of shape node_box: the nodes bisected over the coarse grid, then
 * each node's units over its box. */
static void layout_tiling(const mapping_ctx_t* m, int c, const int* node_box, int* layout) {
  int nnodes = m->nunits / c;
  int coarse[DART_MAPPING_MAX_DIMS];
  box_t box;
  for (int d = 0; d < m->ndims; ++d) {
    coarse[d] = m->dims[d] / node_box[d];
    box.origin[d] = 0;
    box.extent[d] = coarse[d];
  }
  for (int j = 0; j + 1 < nnodes; ++j) m->coarse_split[j] = m->split[(j + 1) * c - 1];
  bisect_ctx_t coarse_ctx = {m->ndims, coarse, m->coarse_split, m->coarse_pos};
  bisect(&coarse_ctx, box, 0, nnodes);
  bisect_ctx_t fine_ctx = {m->ndims, m->dims, m->split, m->pos};
  for (int j = 0; j < nnodes; ++j) {
    int cell[DART_MAPPING_MAX_DIMS];
    coords_of(m->ndims, coarse, m->coarse_pos[j], cell);
    for (int d = 0; d < m->ndims; ++d) {
      box.origin[d] = cell[d] * node_box[d];
      box.extent[d] = node_box[d];
    }
    bisect(&fine_ctx, box, j * c, c);
  }
  layout_from_positions(m, layout);
}

/* Sorted units along the Hilbert curve over a cube of 2^bits cells per side. */
static void layout_hilbert(const mapping_ctx_t* m, int bits, int* layout) {
  for (int i = 0; i < m->nunits; ++i) {
    int cell[DART_MAPPING_MAX_DIMS];
    dart__hilbert_coords(m->ndims, bits, (uint64_t)i, cell);
    m->pos[i] = (int)row_major(m->ndims, m->dims, cell);
  }
  layout_from_positions(m, layout);
}

/* log2 of the common extent if ndims >= 2 and all extents are the same power of two (the
 * Hilbert curve applies), else -1. */
static int hilbert_bits(int ndims, const int* dims) {
  if (ndims < 2) return -1;
  for (int d = 1; d < ndims; ++d) {
    if (dims[d] != dims[0]) return -1;
  }
  int bits = 0;
  while ((1 << bits) < dims[0]) ++bits;
  if ((1 << bits) != dims[0] || bits * ndims > 62) return -1;
  return bits;
}

/* Node-box shapes: every B with B[d] | dims[d] and product c, collected by enumerate_boxes. */
typedef struct {
  int ndims;
  const int* dims;
  int64_t nunits;
  int64_t best_cost;
  int count;
  int boxes[MAX_TILINGS][DART_MAPPING_MAX_DIMS];
} box_search_t;

/* Face links between node boxes when boxes of shape b tile the grid (non-periodic). */
static int64_t tiling_cost(const box_search_t* s, const int* b) {
  int64_t cost = 0;
  for (int d = 0; d < s->ndims; ++d) {
    cost += (int64_t)(s->dims[d] / b[d] - 1) * (s->nunits / s->dims[d]);
  }
  return cost;
}

static void enumerate_boxes(box_search_t* s, int d, int remaining, int* b) {
  if (d == s->ndims - 1) {
    if (s->dims[d] % remaining != 0) return;
    b[d] = remaining;
    int64_t cost = tiling_cost(s, b);
    if (cost < s->best_cost) {
      s->best_cost = cost;
      s->count = 0;
    }
    if (cost == s->best_cost && s->count < MAX_TILINGS) {
      memcpy(s->boxes[s->count++], b, sizeof(int) * (size_t)s->ndims);
    }
    return;
  }
  for (int f = 1; f <= remaining; ++f) {
    if (remaining % f == 0 && s->dims[d] % f == 0) {
      b[d] = f;
      enumerate_boxes(s, d + 1, remaining / f, b);
    }
  }
}

/* Score of a layout (see the top of the file) into score[0..nkeys]; crossings is scratch of
 * nkeys + 1. */
static void layout_score(const mapping_ctx_t* m, const int* layout, int64_t* crossings,
                         int64_t* score) {
  crossings_unchecked(m->nkeys, m->keys, m->ndims, m->dims, layout, DART_STENCIL_FACES, false,
                      crossings);
  score[0] = dart__mapping_node_crossings(crossings, m->node_key);
  int64_t sum = 0;
  for (int l = 0; l < m->nkeys; ++l) {
    sum += crossings[l];
    score[l + 1] = sum;
  }
}

static int compare_scores(int n, const int64_t* a, const int64_t* b) {
  for (int i = 0; i < n; ++i) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

/* ---- compute ----------------------------------------------------------------------------- */

/* The best layout so far and the one being tried (two buffers, swapped on improvement). */
typedef struct {
  const mapping_ctx_t* m;
  int* best;
  int* candidate;
  int64_t* crossings; /* nkeys + 1 each */
  int64_t* best_score;
  int64_t* score;
  int64_t periodic_limit; /* node crossings of the identity with wrap-around links */
  bool improved;          /* best is no longer the identity */
} chooser_t;

/* Node crossings of a layout with the periodic 2*ndims-point stencil; crossings is scratch. */
static int64_t periodic_node_crossings(const mapping_ctx_t* m, const int* layout,
                                       int64_t* crossings) {
  crossings_unchecked(m->nkeys, m->keys, m->ndims, m->dims, layout, DART_STENCIL_FACES, true,
                      crossings);
  return dart__mapping_node_crossings(crossings, m->node_key);
}

/* Keeps the candidate layout if its score is strictly better than the best one's and it has
 * no more node crossings than the identity with wrap-around links either. */
static void consider(chooser_t* ch) {
  const int n = ch->m->nkeys + 1;
  layout_score(ch->m, ch->candidate, ch->crossings, ch->score);
  if (compare_scores(n, ch->score, ch->best_score) < 0 &&
      periodic_node_crossings(ch->m, ch->candidate, ch->crossings) <= ch->periodic_limit) {
    int* t = ch->best;
    ch->best = ch->candidate;
    ch->candidate = t;
    memcpy(ch->best_score, ch->score, sizeof(int64_t) * (size_t)n);
    ch->improved = true;
  }
}

/* Tries the layouts of the mode against the identity (pseudocode at the top of the file). */
static dart_ret_t choose_layout(mapping_ctx_t* m, dart_unit_mapping_t mode, chooser_t* ch) {
  for (int p = 0; p < m->nunits; ++p) ch->best[p] = p;  // the identity is the one to beat
  ch->periodic_limit = periodic_node_crossings(m, ch->best, ch->crossings);
  layout_score(m, ch->best, ch->crossings, ch->best_score);
  const int bits = hilbert_bits(m->ndims, m->dims);
  if (mode == DART_UNIT_MAPPING_HILBERT && bits >= 0) {
    layout_hilbert(m, bits, ch->candidate);
    consider(ch);
    return DART_OK;
  }
  if (mode == DART_UNIT_MAPPING_HILBERT && m->ndims == 1) {
    for (int i = 0; i < m->nunits; ++i) ch->candidate[i] = m->order[i];
    consider(ch);
    return DART_OK;
  }
  // Nodes: runs of sorted units with equal keys 0..node_key; c = units of the first node.
  int nnodes = 1, c = 0, run = 1;
  bool uniform = true;
  for (int i = 0; i + 1 < m->nunits; ++i) {
    if (m->split[i] <= m->node_key) {
      if (c == 0) c = run;
      uniform = uniform && run == c;
      run = 0;
      ++nnodes;
    }
    ++run;
  }
  if (c == 0) c = run;
  uniform = uniform && run == c;
  if (uniform && nnodes > 1 && c > 1) {
    box_search_t* search = malloc(sizeof *search);
    m->coarse_pos = malloc(sizeof(int) * (size_t)nnodes);
    m->coarse_split = malloc(sizeof(int) * (size_t)nnodes);
    if (search == NULL || m->coarse_pos == NULL || m->coarse_split == NULL) {
      free(search);
      return DART_LOG_ERROR_RET(DART_ERR_NOMEM, "dart__mapping_compute",
                                "out of memory for %d nodes", nnodes);
    }
    search->ndims = m->ndims;
    search->dims = m->dims;
    search->nunits = m->nunits;
    search->best_cost = INT64_MAX;
    search->count = 0;
    int b[DART_MAPPING_MAX_DIMS];
    enumerate_boxes(search, 0, c, b);
    for (int t = 0; t < search->count; ++t) {
      layout_tiling(m, c, search->boxes[t], ch->candidate);
      consider(ch);
    }
    free(search);
  }
  layout_bisection(m, ch->candidate);
  consider(ch);
  return DART_OK;
}

dart_ret_t dart__mapping_compute(dart_unit_mapping_t mode, int nunits, int nkeys,
                                 const int64_t* keys, int node_key, int ndims, const int* dims,
                                 int* new_id, int* used_identity) {
  const char* call = "dart__mapping_compute";
  int64_t volume = 0;
  if (mode != DART_UNIT_MAPPING_NONE && mode != DART_UNIT_MAPPING_HIERARCHICAL &&
      mode != DART_UNIT_MAPPING_HILBERT) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call, "unknown mapping mode %d", (int)mode);
  }
  if (nunits < 1 || nkeys < 1 || keys == NULL || new_id == NULL || node_key < 0 ||
      node_key >= nkeys) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                              "need nunits >= 1 (%d), nkeys >= 1 (%d), 0 <= node_key < nkeys "
                              "(%d), keys and new_id",
                              nunits, nkeys, node_key);
  }
  if (!check_grid(ndims, dims, &volume) || volume != nunits) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                              "the grid (%d dims, 1..%d allowed) does not hold %d units", ndims,
                              DART_MAPPING_MAX_DIMS, nunits);
  }
  if (used_identity != NULL) *used_identity = 1;
  for (int u = 0; u < nunits; ++u) new_id[u] = u;
  if (mode == DART_UNIT_MAPPING_NONE || nunits == 1) return DART_OK;

  const size_t n = (size_t)nunits;
  mapping_ctx_t m = {nunits, nkeys, node_key, ndims, keys, dims, NULL, NULL, NULL, NULL, NULL};
  int* order = malloc(sizeof(int) * n);
  int* split = malloc(sizeof(int) * n);
  m.pos = malloc(sizeof(int) * n);
  int64_t* scores = malloc(sizeof(int64_t) * 3 * (size_t)(nkeys + 1));
  chooser_t ch = {.m = &m, .best = malloc(sizeof(int) * n), .candidate = malloc(sizeof(int) * n)};
  dart_ret_t ret;
  if (order == NULL || split == NULL || m.pos == NULL || scores == NULL || ch.best == NULL ||
      ch.candidate == NULL) {
    ret = DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory for %d units", nunits);
  } else {
    ch.crossings = scores;
    ch.best_score = scores + (nkeys + 1);
    ch.score = scores + 2 * (nkeys + 1);
    for (int u = 0; u < nunits; ++u) order[u] = u;
    sort_by_keys(nkeys, keys, nunits, order, m.pos);  // m.pos as merge scratch
    for (int i = 0; i + 1 < nunits; ++i) {
      split[i] = first_difference(nkeys, keys, order[i], order[i + 1]);
    }
    split[nunits - 1] = nkeys;
    m.order = order;
    m.split = split;
    ret = choose_layout(&m, mode, &ch);
    if (ret == DART_OK && ch.improved) {
      for (int p = 0; p < nunits; ++p) new_id[ch.best[p]] = p;
      if (used_identity != NULL) *used_identity = 0;
    }
  }
  free(order);
  free(split);
  free(m.pos);
  free(m.coarse_pos);
  free(m.coarse_split);
  free(scores);
  free(ch.best);
  free(ch.candidate);
  return ret;
}
