/* Topology-aware unit remapping: pure functions, no MPI (internal, not installed).
 *
 * | concept | what it is |
 * |---|---|
 * | grid | the Cartesian grid of a nearest-neighbour code: ndims extents, positions numbered
 *   row-major (last dimension fastest), the layout MPI_Cart_create uses |
 * | key path | per unit, nkeys int64 values, top first: e.g. group, chassis, blade, node,
 *   then optionally numa domain and core; `node_key` is the index of the node's key |
 * | level | two units "differ at level l" if their key paths first differ at key l |
 * | layout | unit_at[pos]: which unit (index into the key array) sits at each grid position |
 * | mapping | new_id[u]: the grid position, i.e. the new unit id, of original unit u |
 * | topology | a parsed DART_TOPOLOGY_FILE: per node its coordinates on the levels above the
 *   node, plus the latency/bandwidth ladder (dart_topology.c documents the format) |
 *
 * Every function is local and deterministic: all units compute the same result from the
 * same input. Costs: parsing O(file size); dart__mapping_compute O(nunits log nunits) time,
 * O(nunits) memory; the metrics O(nunits * stencil size). */
#ifndef DART__MAPPING_H_
#define DART__MAPPING_H_

#include <dart/dart_types.h>
#include <dart/dart_unit_mapping.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest number of grid dimensions the mapping functions accept. */
#define DART_MAPPING_MAX_DIMS 4

/* ---- grid -------------------------------------------------------------------------------- */

/* Balanced Cartesian factorisation of nunits into ndims factors (like MPI_Dims_create with all
 * dims free, but with a fixed rule): of all ways to write nunits as a product of ndims
 * factors in non-increasing order, the lexicographically smallest, i.e. the largest factor
 * is as small as possible, then the second largest, and so on. dims[0] >= dims[1] >= ...
 * E.g. 12,3 -> 3,2,2; 4,3 -> 2,2,1; 9216,3 -> 24,24,16. DART_ERR_INVAL (logged) unless
 * nunits >= 1 and 1 <= ndims <= DART_BALANCED_DIMS_MAX. Local, O(sqrt(nunits) * ndims). */
dart_ret_t dart__balanced_dims(int nunits, int ndims, int* dims);

/* ---- Hilbert curve ----------------------------------------------------------------------- */

/* Grid coordinates of the point at position `index` along the Hilbert curve through the cube
 * of 2^order_bits cells per side in ndims dimensions (2 <= ndims <= DART_MAPPING_MAX_DIMS,
 * ndims * order_bits <= 62). The curve starts at the origin and every step moves to a face
 * neighbour. Local, O(ndims * order_bits). */
void dart__hilbert_coords(int ndims, int order_bits, uint64_t index, int* coords);

/* Inverse of dart__hilbert_coords: the position along the curve of the cell `coords`. */
uint64_t dart__hilbert_index(int ndims, int order_bits, const int* coords);

/* ---- cost metric ------------------------------------------------------------------------- */

/* dart_stencil_t and dart_link_cost_t: <dart/dart_unit_mapping.h>. */

/* Counts the links of the stencil over the layout unit_at (a permutation of 0..nunits-1 over
 * the row-major positions of dims, nunits == product of dims) by the level at which their two
 * units differ: crossings[l] (l < nkeys) = links whose key paths first differ at key l,
 * crossings[nkeys] = links between identical key paths. A link is a position p and an offset
 * o of the positive half of the stencil (first non-zero component +1), joining p and p+o:
 * dropped if p+o lies outside the grid (non-periodic) or wraps onto p itself (periodic extent 1).
 * Every unordered neighbour pair is one link, except with periodic extents of 2, where
 * different offsets reach the same neighbour (through both halos): each is its own link.
 * Dimensions of extent 1 add no links, so a 3-D dims array {X, Y, 1} with FACES gives the
 * 2-D 5-point result.
 * DART_ERR_INVAL (logged) on bad arguments. Local, O(nunits * stencil size * nkeys). */
dart_ret_t dart__mapping_crossings(int nunits, int nkeys, const int64_t* keys, int ndims,
                                   const int* dims, const int* unit_at, dart_stencil_t stencil,
                                   bool periodic, int64_t* crossings);

/* Links whose units sit on different nodes: crossings[0] + ... + crossings[node_key]. */
int64_t dart__mapping_node_crossings(const int64_t* crossings, int node_key);

/* Modelled time of one halo exchange in microseconds. Every unit sends one message of
 * message_bytes to each of its stencil neighbours (one per link end, as counted by
 * dart__mapping_crossings). A message costs its sender the latency of the level at which the
 * two units differ (a unit's messages one after the other), and its bytes / bandwidth of that
 * level on the link they share: messages between nodes go through the network link of the
 * sending node (one per node, shared by all its units: bytes leaving a node queue up), messages
 * inside a node through the node's memory. A node takes the latencies of its slowest unit plus
 * the longer of its link's and its memory's transfer times; the exchange takes *max_node_us =
 * the maximum over nodes, *mean_node_us (if not NULL) the mean over nodes. Nodes are the
 * distinct key paths 0..node_key. cost has node_key + 2 entries, the ladder of
 * dart_topology_t: cost[0] for units on the same node (keys identical down to the node,
 * whatever differs below it), cost[j] for units in different nodes whose paths first differ at
 * key node_key + 1 - j, cost[node_key + 1] for different top-level keys ("system").
 * DART_ERR_INVAL (logged) on bad arguments. Local, O(nunits * (stencil size + log nunits) *
 * nkeys). */
dart_ret_t dart__mapping_model_us(int nunits, int nkeys, const int64_t* keys, int node_key,
                                  int ndims, const int* dims, const int* unit_at,
                                  dart_stencil_t stencil, bool periodic,
                                  const dart_link_cost_t* cost, double message_bytes,
                                  double* max_node_us, double* mean_node_us);

/* ---- remapping --------------------------------------------------------------------------- */

/* Modes: dart_unit_mapping_t (<dart/dart_unit_mapping.h>); their names: dart_unit_mapping_name. */

/* Parses "none", "hierarchical" or "hilbert" (any case). False (nothing logged) otherwise. */
bool dart__mapping_mode_parse(const char* text, dart_unit_mapping_t* mode);

/* Computes new_id[u] for every unit u (a permutation of 0..nunits-1; new id = row-major grid
 * position in dims) so that grid neighbours share nodes, blades, ... as far as possible.
 * keys: nunits * nkeys values, unit-major, top key first; units of one node share all keys
 * 0..node_key. The result never has more node crossings (2*ndims-point stencil, not
 * periodic) than the identity; the identity is returned, and *used_identity (if not NULL)
 * set to 1, when the computed layout is not better (dart_mapping.c: the exact rule); mode
 * NONE always gives the identity. DART_ERR_INVAL (logged) on bad arguments (nunits != product
 * of dims, node_key outside 0..nkeys-1, ...), DART_ERR_NOMEM if memory runs out (new_id
 * then holds the identity).
 * Local, O(nunits log nunits) time, O(nunits) memory. */
dart_ret_t dart__mapping_compute(dart_unit_mapping_t mode, int nunits, int nkeys,
                                 const int64_t* keys, int node_key, int ndims, const int* dims,
                                 int* new_id, int* used_identity);

/* ---- topology description file (dart_topology.c) ----------------------------------------- */

/* Most levels above the node a topology file may name. */
#define DART_TOPOLOGY_MAX_LEVELS 8
/* Longest level name, without the terminating NUL. */
#define DART_TOPOLOGY_MAX_NAME 31
/* Largest topology file (16 MiB: a million nodes in Cray notation), in bytes. */
#define DART_TOPOLOGY_MAX_FILE_BYTES ((size_t)16 << 20)
/* Longest line of a topology description, in bytes without the newline. */
#define DART_TOPOLOGY_MAX_LINE_BYTES 4096

typedef struct {
  int nnodes;  /* node lines: node i of the run is the i-th */
  int nlevels; /* levels above the node (Cray placement strings: 3) */
  bool cray;   /* true: read from Cray placement strings */
  /* Level names, top first (Cray: group, chassis, blade). */
  char level_names[DART_TOPOLOGY_MAX_LEVELS][DART_TOPOLOGY_MAX_NAME + 1];
  /* nnodes * nlevels, node-major: coords[n * nlevels + l] = node n's coordinate at level l
   * (Cray: group = cabinet column << 32 | cabinet row, chassis, blade slot). */
  int64_t* coords;
  /* nlevels + 2 entries: [0] two units on the same node, [j] (1 <= j <= nlevels) two nodes in
   * the same level_names[nlevels - j] (but different below it), [nlevels + 1] "system":
   * different top-level groups. Defaults: dart__topology_default_costs. */
  dart_link_cost_t cost[DART_TOPOLOGY_MAX_LEVELS + 2];
} dart_topology_t;

/* Fills cost[0 .. nlevels + 1] with the default ladder (Cray XC40-like, see dart_topology.c).
 * DART_ERR_INVAL (logged) unless 0 <= nlevels <= DART_TOPOLOGY_MAX_LEVELS. Local. */
dart_ret_t dart__topology_default_costs(int nlevels, dart_link_cost_t* cost);

/* Parses a topology description held in `text`; `name` labels error messages (a file name).
 * Lines are at most DART_TOPOLOGY_MAX_LINE_BYTES long.
 * On success *out owns memory (dart__topology_free). On malformed input returns
 * DART_ERR_INVAL (DART_ERR_NOMEM if memory runs out) with *out zeroed and the message
 * "<name>:<line>: <what is wrong>" in err (truncated to errlen; err may be NULL); nothing is
 * logged. Local, O(length of text). */
dart_ret_t dart__topology_parse_text(const char* text, const char* name, dart_topology_t* out,
                                     char* err, size_t errlen);

/* Reads and parses the file at path (see dart__topology_parse_text). Only a regular file of at
 * most DART_TOPOLOGY_MAX_FILE_BYTES is read (a FIFO, device or directory is refused without
 * being read, so /dev/zero or a FIFO cannot stall start-up); an unreadable or refused file
 * gives DART_ERR_INVAL with "<path>: cannot read: <reason>", an oversized one
 * "<path>: <size> bytes, more than ...". Local, reads the file once. */
dart_ret_t dart__topology_parse_file(const char* path, dart_topology_t* out, char* err,
                                     size_t errlen);

/* Releases what a successful parse allocated and zeroes *topo; safe on a zeroed struct. */
void dart__topology_free(dart_topology_t* topo);

/* Writes the key path of every unit for dart__mapping_compute: row u of keys (row length
 * key_stride >= nlevels + 1) gets the coordinates of node unit_node[u] at every level, then
 * unit_node[u] itself as the node key (node_key = nlevels); keys past nlevels + 1 in a row are
 * left to the caller (e.g. numa domain, core). DART_ERR_INVAL (logged) if a node index is
 * outside 0..nnodes-1 or key_stride is too small. Local, O(nunits * nlevels). */
dart_ret_t dart__topology_unit_keys(const dart_topology_t* topo, int nunits, const int* unit_node,
                                    int key_stride, int64_t* keys);

/* ---- the ladder, a rung and a layout's cost, as the public queries report them ---------- */
/* (dart_mapping_model.c; used by dart_unit_mapping.c and dart_mapping_model.h's model) */

/* The cost ladder of topo: *nrungs = nlevels + 2 rungs named node, topo's levels bottom up,
 * system, with topo's costs (the default ladder without levels). DART_ERR_OTHER (not logged)
 * if no default ladder exists. Local. */
dart_ret_t dart__mapping_ladder(const dart_topology_t* topo, int* nrungs,
                                char names[][DART_UNIT_MAPPING_NAME_SIZE], dart_link_cost_t* cost);

/* The rung two key paths share: 0 if they agree down to node_key (whatever differs below),
 * else node_key + 1 - the first key where they differ. Local, O(node_key). */
int dart__mapping_rung(const int64_t* ka, const int64_t* kb, int node_key);

/* The cost of the layout unit_at as dart_unit_mapping_cost_t reports it: links by rung (keys
 * below node_key count as the node), node crossings, the modelled times with the ladder
 * (node_key + 2 rungs). DART_ERR_INVAL (logged) on bad arguments, DART_ERR_NOMEM (logged as
 * call). Local, O(nunits * stencil size * nkeys). */
dart_ret_t dart__mapping_layout_cost(const char* call, int nunits, int nkeys, const int64_t* keys,
                                     int node_key, const dart_link_cost_t* ladder, int ndims,
                                     const int* dims, const int* unit_at, dart_stencil_t stencil,
                                     bool periodic, size_t message_bytes,
                                     dart_unit_mapping_cost_t* cost);

#ifdef __cplusplus
}
#endif

#endif /* DART__MAPPING_H_ */
