/* Unit mapping: which unit id each process gets at start-up, and what a layout of units on a
 * Cartesian grid costs a nearest-neighbour code.
 *
 * DART_UNIT_MAPPING=none|hierarchical|hilbert (default none) renumbers the units at dart_init
 * so that neighbours in the balanced grid of all units (dart_balanced_dims over
 * DART_UNIT_MAPPING_DIMS dimensions, positions row-major = the MPI_Cart_create layout, a
 * unit's id is its position) share nodes, and with a DART_TOPOLOGY_FILE also blades, chassis
 * and groups. DART_TEAM_ALL, dart_myid and every team see the new ids; dart_unit_mpi_rank
 * gives a unit's rank in MPI_COMM_WORLD.
 *
 * Costs are counted per stencil link (two neighbouring grid positions) by the closest level of
 * the machine hierarchy the two units share: the ladder [0] same node, [1] the lowest level
 * above the node (e.g. blade), ..., [nlevels - 1] "system" (different top-level groups).
 *
 * | call                   | cost                                  |
 * |------------------------|---------------------------------------|
 * | dart_unit_mapping_info | local                                 |
 * | dart_unit_mapping_name | local                                 |
 * | dart_unit_mpi_rank     | local                                 |
 * | dart_unit_link_cost    | local, O(levels)                      |
 * | dart_balanced_dims     | local, O(sqrt(nunits) * ndims)        |
 * | dart_unit_mapping_cost | local, O(units * stencil size)        | */
#ifndef DART__DART_UNIT_MAPPING_H_
#define DART__DART_UNIT_MAPPING_H_

#include <dart/dart_types.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Most grid dimensions a mapping targets. */
#define DART_UNIT_MAPPING_MAX_DIMS 4
/* Most rungs of the cost ladder: node, up to 8 topology levels, system. */
#define DART_UNIT_MAPPING_MAX_LEVELS 10
/* Longest level name, with the terminating NUL. */
#define DART_UNIT_MAPPING_NAME_SIZE 32

/* DART_UNIT_MAPPING: none keeps MPI_COMM_WORLD's rank order; hierarchical bisects the grid
 * along the machine hierarchy; hilbert lays units in hierarchy order along a Hilbert curve
 * where the grid allows it. */
typedef enum {
  DART_UNIT_MAPPING_NONE = 0,
  DART_UNIT_MAPPING_HIERARCHICAL = 1,
  DART_UNIT_MAPPING_HILBERT = 2
} dart_unit_mapping_t;

/* Lower-case name of a mode ("none", "hierarchical", "hilbert"; "invalid" for other values).
 * Local. */
const char* dart_unit_mapping_name(dart_unit_mapping_t mode);

/* Neighbourhood on a grid: FACES = the 2*ndims face neighbours (2-D 5-point, 3-D 7-point
 * stencil); FULL = all 3^ndims - 1 neighbours (2-D 9-point, 3-D 27-point). */
typedef enum { DART_STENCIL_FACES, DART_STENCIL_FULL } dart_stencil_t;

/* Latency and bandwidth of a message between two units. */
typedef struct {
  double latency_us;     /* microseconds */
  double bandwidth_GBps; /* 10^9 bytes per second */
} dart_link_cost_t;

/* What dart_init chose. */
typedef struct {
  dart_unit_mapping_t mode;             /* DART_UNIT_MAPPING */
  int renumbered;                       /* 1: some unit id differs from its MPI_COMM_WORLD rank */
  int ndims;                            /* DART_UNIT_MAPPING_DIMS */
  int dims[DART_UNIT_MAPPING_MAX_DIMS]; /* the balanced grid of all units (ndims entries) */
  int nodes;                            /* (real or emulated) nodes of the run */
  int topology_nodes;                   /* node lines in DART_TOPOLOGY_FILE; 0 without a file */
  int nlevels;                          /* rungs of the cost ladder (2 without a topology file) */
  char level_names[DART_UNIT_MAPPING_MAX_LEVELS][DART_UNIT_MAPPING_NAME_SIZE];
  dart_link_cost_t cost[DART_UNIT_MAPPING_MAX_LEVELS]; /* per rung, for the model */
} dart_unit_mapping_info_t;

/* The mapping in force and the machine model behind it. Local. */
dart_ret_t dart_unit_mapping_info(dart_unit_mapping_info_t* info);

/* The rank in MPI_COMM_WORLD of a unit of DART_TEAM_ALL (its id when mapping is none). Local. */
dart_ret_t dart_unit_mpi_rank(dart_global_unit_t unit, int* world_rank);

/* The rung of the cost ladder two units of DART_TEAM_ALL share (0: the same node; the
 * closest level of DART_TOPOLOGY_FILE above it; nlevels - 1: different top-level groups, or
 * different nodes without a file) and its latency and bandwidth. Local, O(levels). */
dart_ret_t dart_unit_link_cost(dart_global_unit_t a, dart_global_unit_t b, int* rung,
                               dart_link_cost_t* cost);

/* Most dimensions dart_balanced_dims factors into. */
#define DART_BALANCED_DIMS_MAX 32

/* Balanced Cartesian factorisation of nunits into ndims factors, non-increasing, as equal as
 * possible (the largest factor as small as possible, then the next): 12,3 -> 3,2,2. The one
 * balanced grid of the library: the grid the mapping targets, and the grid of
 * dash::TeamSpec::balance_extents(), dash::make_team_spec and
 * dash::bp::RegularDecomposer. DART_ERR_INVAL unless nunits >= 1, 1 <= ndims <=
 * DART_BALANCED_DIMS_MAX and dims != NULL. Local; needs no dart_init. */
dart_ret_t dart_balanced_dims(int nunits, int ndims, int* dims);

/* The cost of a layout of DART_TEAM_ALL's units on a grid. */
typedef struct {
  int nlevels; /* rungs, as in dart_unit_mapping_info_t */
  /* Stencil links by the closest level their two units share: [0] same node, ...,
   * [nlevels - 1] different top-level groups. */
  int64_t links[DART_UNIT_MAPPING_MAX_LEVELS];
  int64_t node_crossings; /* links between units on different nodes */
  /* Modelled time of one exchange in which every unit sends message_bytes to each stencil
   * neighbour: a unit pays the latency of the rung for each of its messages, one after the
   * other; the bytes leaving a node share its network link (bytes / bandwidth of the rung), the
   * bytes staying inside share its memory; a node takes its slowest unit's latencies plus the
   * longer transfer. modelled_us: the slowest node; mean_node_us: the mean over nodes. */
  double modelled_us, mean_node_us;
} dart_unit_mapping_cost_t;

/* Costs the layout unit_at (unit_at[p] = the unit of DART_TEAM_ALL at row-major position p of
 * dims; every unit exactly once, product of dims = team size) for the stencil, with
 * wrap-around links if periodic is non-zero. DART_ERR_INVAL on a bad layout. Local. */
dart_ret_t dart_unit_mapping_cost(const dart_global_unit_t* unit_at, int ndims, const int* dims,
                                  dart_stencil_t stencil, int periodic, size_t message_bytes,
                                  dart_unit_mapping_cost_t* cost);

#ifdef __cplusplus
}
#endif

#endif /* DART__DART_UNIT_MAPPING_H_ */
