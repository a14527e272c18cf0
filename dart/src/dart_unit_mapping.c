/* Unit remapping at start-up (DART_UNIT_MAPPING, DART_TOPOLOGY_FILE) and the public queries
 * of dart_unit_mapping.h. The algorithm and the cost metric are in dart_mapping.c, the file
 * parser in dart_topology.c.
 *
 * At dart_init, after the nodes are known (dart_init.c, discover_nodes), every unit:
 *   1. reads the topology file, if one is named, and checks it describes every node;
 *   2. builds each unit's key path: the node's coordinates at every level of the file, the
 *      node index, then the unit's NUMA domain (hwloc; -1 if unknown), so a node's units are
 *      laid out NUMA domain by NUMA domain (the multi-core groups);
 *   3. computes the balanced grid of all units and the new id of every unit
 *      (dart__mapping_compute: deterministic, so every unit gets the same answer);
 *   4. if any id changes, splits the world communicator with the new ids as keys (one
 *      collective) and permutes the per-unit tables, so DART_TEAM_ALL and every team built
 *      later see the new ids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dart_internal.h"
#include "dart_mapping.h"

static struct {
  dart_unit_mapping_t mode;
  bool renumbered;
  int ndims;
  int dims[DART_MAPPING_MAX_DIMS];
  int topology_nodes;
  int nkeys, node_key; /* key path per unit: levels above the node, the node, NUMA domain */
  int64_t* keys;       /* size * nkeys, by (new) unit id */
  int* world_rank;     /* by (new) unit id */
  int nrungs;          /* cost ladder: [0] node ... [nrungs - 1] system */
  char rung_names[DART_UNIT_MAPPING_MAX_LEVELS][DART_UNIT_MAPPING_NAME_SIZE];
  dart_link_cost_t cost[DART_UNIT_MAPPING_MAX_LEVELS];
} mapping;

void dart__unit_mapping_release(void) {
  free(mapping.keys);
  free(mapping.world_rank);
  memset(&mapping, 0, sizeof mapping);
}

/* Reads DART_TOPOLOGY_FILE into *topo (zeroed if none is named). On a bad file: with
 * DART_UNIT_MAPPING_FALLBACK=identity a warning and no topology (*mode becomes none), else the
 * error. */
static dart_ret_t read_topology(const char* call, dart_topology_t* topo,
                                dart_unit_mapping_t* mode) {
  memset(topo, 0, sizeof *topo);
  const char* path = dart__state.config.topology_file;
  if (path[0] == '\0') return DART_OK;
  char err[512] = "";
  dart_ret_t ret = dart__topology_parse_file(path, topo, err, sizeof err);
  if (ret == DART_OK && topo->nnodes < dart__state.num_nodes) {
    snprintf(err, sizeof err,
             "%.400s: describes %d node(s), the run has %d (real or emulated) nodes", path,
             topo->nnodes, dart__state.num_nodes);
    dart__topology_free(topo);
    ret = DART_ERR_INVAL;
  }
  if (ret == DART_OK) return DART_OK;
  if (ret == DART_ERR_INVAL && dart__state.config.unit_mapping_fallback) {
    dart__log(DART_LOG_WARN, call,
              "DART_TOPOLOGY_FILE: %s; keeping the MPI rank order "
              "(DART_UNIT_MAPPING_FALLBACK=identity)",
              err);
    *mode = DART_UNIT_MAPPING_NONE;
    return DART_OK;
  }
  if (ret != DART_ERR_INVAL) return DART_LOG_ERROR_RET(ret, call, "out of memory");
  return DART_LOG_ERROR_RET(DART_ERR_INVAL, call, "DART_TOPOLOGY_FILE: %s", err);
}

/* The cost ladder and its names: node, the file's levels bottom up, system. */
static dart_ret_t set_ladder(const char* call, const dart_topology_t* topo) {
  if (dart__mapping_ladder(topo, &mapping.nrungs, mapping.rung_names, mapping.cost) != DART_OK) {
    return DART_LOG_ERROR_RET(DART_ERR_OTHER, call, "no default cost ladder");
  }
  return DART_OK;
}

/* Renumbers the units: comm_all split with the new ids as keys, tables permuted. Collective. */
static dart_ret_t renumber(const char* call, const int* new_id) {
  const int n = dart__state.size;
  MPI_Comm comm = MPI_COMM_NULL;
  DART_MPI_CALL(call, MPI_Comm_split(dart__state.comm_all, 0, new_id[dart__state.myid], &comm));
  int myid = -1;
  dart_ret_t ret = dart__mpi_error(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN), call,
                                   "MPI_Comm_set_errhandler");
  if (ret == DART_OK) ret = dart__mpi_error(MPI_Comm_rank(comm, &myid), call, "MPI_Comm_rank");
  if (ret != DART_OK) {
    (void)MPI_Comm_free(&comm); /* error path: the error above is returned */
    return ret;
  }
  (void)MPI_Comm_free(&dart__state.comm_all); /* the old one: a failure only leaks it */
  dart__state.comm_all = comm;
  dart__state.myid = myid;
  int* node = malloc(sizeof(int) * (size_t)n);
  int* real_node = malloc(sizeof(int) * (size_t)n);
  int64_t* keys = malloc(sizeof(int64_t) * (size_t)n * (size_t)mapping.nkeys);
  if (node == NULL || real_node == NULL || keys == NULL) {
    free(node);
    free(real_node);
    free(keys);
    return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  }
  const size_t row = sizeof(int64_t) * (size_t)mapping.nkeys;
  for (int u = 0; u < n; ++u) {
    node[new_id[u]] = dart__state.node[u];
    real_node[new_id[u]] = dart__state.real_node[u];
    memcpy(keys + (size_t)new_id[u] * (size_t)mapping.nkeys,
           mapping.keys + (size_t)u * (size_t)mapping.nkeys, row);
    mapping.world_rank[new_id[u]] = u;
  }
  if (dart__locality_renumber(new_id) != DART_OK) {
    free(node);
    free(real_node);
    free(keys);
    return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  }
  free(dart__state.node);
  free(dart__state.real_node);
  free(mapping.keys);
  dart__state.node = node;
  dart__state.real_node = real_node;
  mapping.keys = keys;
  mapping.renumbered = true;
  return DART_OK;
}

dart_ret_t dart__unit_mapping_setup(const char* call) {
  dart__unit_mapping_release();
  const int n = dart__state.size;
  mapping.mode = dart__state.config.unit_mapping;
  mapping.ndims = dart__state.config.unit_mapping_dims;
  dart_topology_t topo;
  dart_ret_t ret = read_topology(call, &topo, &mapping.mode);
  if (ret != DART_OK) return ret;
  int* new_id = NULL;
  mapping.topology_nodes = topo.nnodes;
  mapping.nkeys = topo.nlevels + 2;
  mapping.node_key = topo.nlevels;
  mapping.keys = malloc(sizeof(int64_t) * (size_t)n * (size_t)mapping.nkeys);
  mapping.world_rank = malloc(sizeof(int) * (size_t)n);
  new_id = malloc(sizeof(int) * (size_t)n);
  if (mapping.keys == NULL || mapping.world_rank == NULL || new_id == NULL) {
    ret = DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
    goto done;
  }
  if (topo.nnodes > 0) {
    ret = dart__topology_unit_keys(&topo, n, dart__state.node, mapping.nkeys, mapping.keys);
  } else {
    for (int u = 0; u < n; ++u) {
      mapping.keys[(size_t)u * (size_t)mapping.nkeys] = dart__state.node[u];
    }
  }
  for (int u = 0; u < n; ++u) {
    mapping.keys[(size_t)u * (size_t)mapping.nkeys + (size_t)mapping.node_key + 1] =
        dart__locality_numa(u);
  }
  if (ret == DART_OK) ret = set_ladder(call, &topo);
  if (ret == DART_OK) ret = dart__balanced_dims(n, mapping.ndims, mapping.dims);
  if (ret == DART_OK) {
    ret = dart__mapping_compute(mapping.mode, n, mapping.nkeys, mapping.keys, mapping.node_key,
                                mapping.ndims, mapping.dims, new_id, NULL);
  }
  if (ret != DART_OK) goto done;
  for (int u = 0; u < n; ++u) mapping.world_rank[u] = u;
  bool changes = false;
  for (int u = 0; u < n && !changes; ++u) changes = new_id[u] != u;
  if (changes) ret = renumber(call, new_id);
  if (ret == DART_OK && dart__state.myid == 0 && mapping.mode != DART_UNIT_MAPPING_NONE) {
    char grid[64] = "";
    for (int d = 0, at = 0; d < mapping.ndims && at < (int)sizeof grid; ++d) {
      at += snprintf(grid + at, sizeof grid - (size_t)at, d > 0 ? "x%d" : "%d", mapping.dims[d]);
    }
    dart__log(DART_LOG_INFO, call, "DART_UNIT_MAPPING=%s: %s (grid %s, %d node(s)%s%.400s)",
              dart_unit_mapping_name(mapping.mode),
              changes ? "unit ids renumbered" : "rank order kept (already as good)", grid,
              dart__state.num_nodes, topo.nnodes > 0 ? ", topology " : "",
              topo.nnodes > 0 ? dart__state.config.topology_file : "");
  }
done:
  free(new_id);
  dart__topology_free(&topo);
  if (ret != DART_OK) dart__unit_mapping_release();
  return ret;
}

dart_ret_t dart_unit_mapping_info(dart_unit_mapping_info_t* info) {
  DART_CHECK_INIT("dart_unit_mapping_info");
  DART_CHECK_ARG("dart_unit_mapping_info", info != NULL, "info is NULL");
  memset(info, 0, sizeof *info);
  info->mode = mapping.mode;
  info->renumbered = mapping.renumbered ? 1 : 0;
  info->ndims = mapping.ndims;
  memcpy(info->dims, mapping.dims, sizeof(int) * (size_t)mapping.ndims);
  info->nodes = dart__state.num_nodes;
  info->topology_nodes = mapping.topology_nodes;
  info->nlevels = mapping.nrungs;
  memcpy(info->level_names, mapping.rung_names, sizeof mapping.rung_names);
  memcpy(info->cost, mapping.cost, sizeof mapping.cost);
  return DART_OK;
}

dart_ret_t dart_unit_mpi_rank(dart_global_unit_t unit, int* world_rank) {
  DART_CHECK_INIT("dart_unit_mpi_rank");
  DART_CHECK_ARG("dart_unit_mpi_rank", world_rank != NULL, "world_rank is NULL");
  DART_CHECK_ARG("dart_unit_mpi_rank", unit.id >= 0 && unit.id < dart__state.size,
                 "unit %d is not in [0, %d)", (int)unit.id, dart__state.size);
  *world_rank = mapping.world_rank[unit.id];
  return DART_OK;
}

dart_ret_t dart_balanced_dims(int nunits, int ndims, int* dims) {
  DART_CHECK_ARG("dart_balanced_dims", dims != NULL, "dims is NULL");
  return dart__balanced_dims(nunits, ndims, dims);
}

dart_ret_t dart_unit_link_cost(dart_global_unit_t a, dart_global_unit_t b, int* rung,
                               dart_link_cost_t* cost) {
  const char* call = "dart_unit_link_cost";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, rung != NULL && cost != NULL, "rung and cost must not be NULL");
  DART_CHECK_ARG(call, a.id >= 0 && a.id < dart__state.size && b.id >= 0 && b.id < dart__state.size,
                 "units %d and %d: not both in [0, %d)", (int)a.id, (int)b.id, dart__state.size);
  *rung = dart__mapping_rung(mapping.keys + (size_t)a.id * (size_t)mapping.nkeys,
                             mapping.keys + (size_t)b.id * (size_t)mapping.nkeys, mapping.node_key);
  *cost = mapping.cost[*rung];
  return DART_OK;
}

dart_ret_t dart_unit_mapping_cost(const dart_global_unit_t* unit_at, int ndims, const int* dims,
                                  dart_stencil_t stencil, int periodic, size_t message_bytes,
                                  dart_unit_mapping_cost_t* cost) {
  const char* call = "dart_unit_mapping_cost";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, unit_at != NULL && dims != NULL && cost != NULL,
                 "unit_at, dims and cost must not be NULL");
  const int n = dart__state.size;
  int* at = malloc(sizeof(int) * (size_t)n);
  if (at == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  for (int p = 0; p < n; ++p) at[p] = unit_at[p].id;
  dart_ret_t ret = dart__mapping_layout_cost(call, n, mapping.nkeys, mapping.keys, mapping.node_key,
                                             mapping.cost, ndims, dims, at, stencil, periodic != 0,
                                             message_bytes, cost);
  free(at);
  return ret;
}
