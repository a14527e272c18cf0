/* The public mapping model (dart_mapping_model.h) over the pure functions of dart_mapping.h,
 * and the cost ladder, rung and layout cost it shares with the run's queries
 * (dart_unit_mapping.c). A model's key path per unit: the node's coordinates at every level
 * of the text, then the node index (node_key = nlevels); no NUMA key. */
#include <dart/dart_mapping_model.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dart_internal.h"
#include "dart_mapping.h"

struct dart_mapping_model {
  int nunits, nodes;
  int nkeys, node_key; /* key path per unit: levels above the node, the node */
  int64_t* keys;       /* nunits * nkeys */
  int nrungs;          /* cost ladder: [0] node ... [nrungs - 1] system */
  char rung_names[DART_UNIT_MAPPING_MAX_LEVELS][DART_UNIT_MAPPING_NAME_SIZE];
  dart_link_cost_t cost[DART_UNIT_MAPPING_MAX_LEVELS];
};

/* ---- shared with dart_unit_mapping.c ------------------------------------------------------ */

dart_ret_t dart__mapping_ladder(const dart_topology_t* topo, int* nrungs,
                                char names[][DART_UNIT_MAPPING_NAME_SIZE], dart_link_cost_t* cost) {
  const int nlevels = topo->nlevels;
  *nrungs = nlevels + 2;
  if (nlevels > 0) {
    memcpy(cost, topo->cost, sizeof(dart_link_cost_t) * (size_t)*nrungs);
  } else if (dart__topology_default_costs(0, cost) != DART_OK) {
    return DART_ERR_OTHER;
  }
  snprintf(names[0], DART_UNIT_MAPPING_NAME_SIZE, "node");
  for (int j = 1; j <= nlevels; ++j) {
    snprintf(names[j], DART_UNIT_MAPPING_NAME_SIZE, "%s", topo->level_names[nlevels - j]);
  }
  snprintf(names[nlevels + 1], DART_UNIT_MAPPING_NAME_SIZE, "system");
  return DART_OK;
}

int dart__mapping_rung(const int64_t* ka, const int64_t* kb, int node_key) {
  for (int l = 0; l <= node_key; ++l)
    if (ka[l] != kb[l]) return node_key + 1 - l;
  return 0; /* the same node, whatever differs below it */
}

dart_ret_t dart__mapping_layout_cost(const char* call, int nunits, int nkeys, const int64_t* keys,
                                     int node_key, const dart_link_cost_t* ladder, int ndims,
                                     const int* dims, const int* unit_at, dart_stencil_t stencil,
                                     bool periodic, size_t message_bytes,
                                     dart_unit_mapping_cost_t* cost) {
  int64_t* crossings = malloc(sizeof(int64_t) * (size_t)(nkeys + 1));
  if (crossings == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  dart_ret_t ret = dart__mapping_crossings(nunits, nkeys, keys, ndims, dims, unit_at, stencil,
                                           periodic, crossings);
  if (ret == DART_OK) {
    memset(cost, 0, sizeof *cost);
    cost->nlevels = node_key + 2;
    /* crossings[l]: links first differing at key l (top first); [nkeys]: identical paths.
     * Links differing only below the node (NUMA domain) stay on the node. */
    for (int l = node_key + 1; l <= nkeys; ++l) cost->links[0] += crossings[l];
    for (int j = 1; j <= node_key + 1; ++j) cost->links[j] = crossings[node_key + 1 - j];
    cost->node_crossings = dart__mapping_node_crossings(crossings, node_key);
    ret = dart__mapping_model_us(nunits, nkeys, keys, node_key, ndims, dims, unit_at, stencil,
                                 periodic, ladder, (double)message_bytes, &cost->modelled_us,
                                 &cost->mean_node_us);
  }
  free(crossings);
  return ret;
}

/* ---- argument checks of the public calls --------------------------------------------------- */

/* Logs and returns false unless 1 <= ndims <= DART_UNIT_MAPPING_MAX_DIMS, every extent >= 1
 * and their product is nunits. */
static bool grid_holds(const char* call, int ndims, const int* dims, int nunits) {
  if (ndims < 1 || ndims > DART_UNIT_MAPPING_MAX_DIMS) {
    dart__log(DART_LOG_ERROR, call, "ndims %d is not in [1, %d]", ndims,
              DART_UNIT_MAPPING_MAX_DIMS);
    return false;
  }
  int64_t volume = 1;
  for (int d = 0; d < ndims; ++d) {
    if (dims[d] < 1) {
      dart__log(DART_LOG_ERROR, call, "dims[%d] = %d: every extent must be >= 1", d, dims[d]);
      return false;
    }
    volume *= dims[d];
    if (volume > nunits) break;
  }
  if (volume != nunits) {
    dart__log(DART_LOG_ERROR, call, "the grid of %d dims does not hold the model's %d units", ndims,
              nunits);
    return false;
  }
  return true;
}

/* ---- the public model ----------------------------------------------------------------------- */

/* Logs "<call>: <message>" and copies the message into err (if any); returns ret. */
static dart_ret_t create_failed(const char* call, char* err, size_t errlen, dart_ret_t ret,
                                const char* fmt, ...) __attribute__((format(printf, 5, 6)));
static dart_ret_t create_failed(const char* call, char* err, size_t errlen, dart_ret_t ret,
                                const char* fmt, ...) {
  char message[512];
  va_list args;
  va_start(args, fmt);
  vsnprintf(message, sizeof message, fmt, args);
  va_end(args);
  if (err != NULL && errlen > 0) snprintf(err, errlen, "%s", message);
  return DART_LOG_ERROR_RET(ret, call, "%s", message);
}

dart_ret_t dart_mapping_model_create(const char* topology_text, const char* name, int nunits,
                                     const int* unit_node, dart_mapping_model_t* model, char* err,
                                     size_t errlen) {
  const char* call = "dart_mapping_model_create";
  if (err != NULL && errlen > 0) err[0] = '\0';
  if (model == NULL) return create_failed(call, err, errlen, DART_ERR_INVAL, "model is NULL");
  *model = NULL;
  if (topology_text == NULL || unit_node == NULL || nunits < 1) {
    return create_failed(call, err, errlen, DART_ERR_INVAL,
                         "need topology_text, unit_node and nunits >= 1 (%d)", nunits);
  }
  char message[512] = "";
  dart_topology_t topo;
  dart_ret_t ret = dart__topology_parse_text(topology_text, name, &topo, message, sizeof message);
  if (ret != DART_OK) return create_failed(call, err, errlen, ret, "%s", message);
  for (int u = 0; u < nunits; ++u) {
    if (unit_node[u] < 0 || unit_node[u] >= topo.nnodes) {
      ret = create_failed(call, err, errlen, DART_ERR_INVAL,
                          "unit_node[%d] = %d: the topology describes nodes 0..%d", u, unit_node[u],
                          topo.nnodes - 1);
      dart__topology_free(&topo);
      return ret;
    }
  }
  struct dart_mapping_model* m = calloc(1, sizeof *m);
  if (m != NULL) {
    m->nunits = nunits;
    m->nodes = topo.nnodes;
    m->node_key = topo.nlevels;
    m->nkeys = topo.nlevels + 1;
    m->keys = malloc(sizeof(int64_t) * (size_t)nunits * (size_t)m->nkeys);
  }
  if (m == NULL || m->keys == NULL) {
    ret = create_failed(call, err, errlen, DART_ERR_NOMEM, "out of memory");
  } else {
    ret = dart__topology_unit_keys(&topo, nunits, unit_node, m->nkeys, m->keys);
  }
  if (ret == DART_OK &&
      dart__mapping_ladder(&topo, &m->nrungs, m->rung_names, m->cost) != DART_OK) {
    ret = create_failed(call, err, errlen, DART_ERR_OTHER, "no default cost ladder");
  }
  dart__topology_free(&topo);
  if (ret != DART_OK) {
    if (m != NULL) free(m->keys);
    free(m);
    return ret;
  }
  *model = m;
  return DART_OK;
}

dart_ret_t dart_mapping_model_destroy(dart_mapping_model_t* model) {
  DART_CHECK_ARG("dart_mapping_model_destroy", model != NULL, "model is NULL");
  if (*model != NULL) free((*model)->keys);
  free(*model);
  *model = NULL;
  return DART_OK;
}

dart_ret_t dart_mapping_model_info(dart_mapping_model_t model, dart_mapping_model_info_t* info) {
  const char* call = "dart_mapping_model_info";
  DART_CHECK_ARG(call, model != NULL && info != NULL, "model and info must not be NULL");
  memset(info, 0, sizeof *info);
  info->nunits = model->nunits;
  info->nodes = model->nodes;
  info->nlevels = model->nrungs;
  memcpy(info->level_names, model->rung_names, sizeof model->rung_names);
  memcpy(info->cost, model->cost, sizeof model->cost);
  return DART_OK;
}

dart_ret_t dart_mapping_model_link_cost(dart_mapping_model_t model, int a, int b, int* rung,
                                        dart_link_cost_t* cost) {
  const char* call = "dart_mapping_model_link_cost";
  DART_CHECK_ARG(call, model != NULL && rung != NULL && cost != NULL,
                 "model, rung and cost must not be NULL");
  DART_CHECK_ARG(call, a >= 0 && a < model->nunits && b >= 0 && b < model->nunits,
                 "units %d and %d: not both in [0, %d)", a, b, model->nunits);
  *rung = dart__mapping_rung(model->keys + (size_t)a * (size_t)model->nkeys,
                             model->keys + (size_t)b * (size_t)model->nkeys, model->node_key);
  *cost = model->cost[*rung];
  return DART_OK;
}

dart_ret_t dart_mapping_model_compute(dart_mapping_model_t model, dart_unit_mapping_t mode,
                                      int ndims, const int* dims, int* new_id, int* used_identity) {
  const char* call = "dart_mapping_model_compute";
  DART_CHECK_ARG(call, model != NULL && dims != NULL && new_id != NULL,
                 "model, dims and new_id must not be NULL");
  DART_CHECK_ARG(call,
                 mode == DART_UNIT_MAPPING_NONE || mode == DART_UNIT_MAPPING_HIERARCHICAL ||
                     mode == DART_UNIT_MAPPING_HILBERT,
                 "unknown mapping mode %d", (int)mode);
  if (!grid_holds(call, ndims, dims, model->nunits)) return DART_ERR_INVAL;
  return dart__mapping_compute(mode, model->nunits, model->nkeys, model->keys, model->node_key,
                               ndims, dims, new_id, used_identity);
}

dart_ret_t dart_mapping_model_cost(dart_mapping_model_t model, const int* unit_at, int ndims,
                                   const int* dims, dart_stencil_t stencil, int periodic,
                                   size_t message_bytes, dart_unit_mapping_cost_t* cost) {
  const char* call = "dart_mapping_model_cost";
  DART_CHECK_ARG(call, model != NULL && unit_at != NULL && dims != NULL && cost != NULL,
                 "model, unit_at, dims and cost must not be NULL");
  DART_CHECK_ARG(call, stencil == DART_STENCIL_FACES || stencil == DART_STENCIL_FULL,
                 "unknown stencil %d", (int)stencil);
  if (!grid_holds(call, ndims, dims, model->nunits)) return DART_ERR_INVAL;
  const int n = model->nunits;
  unsigned char* seen = calloc((size_t)n, 1);
  if (seen == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  int bad = -1;
  for (int p = 0; p < n && bad < 0; ++p) {
    const int u = unit_at[p];
    if (u < 0 || u >= n || seen[u])
      bad = p;
    else
      seen[u] = 1;
  }
  free(seen);
  DART_CHECK_ARG(call, bad < 0,
                 "unit_at[%d] = %d: the layout must hold every unit of [0, %d) exactly once", bad,
                 bad < 0 ? 0 : unit_at[bad], n);
  return dart__mapping_layout_cost(call, n, model->nkeys, model->keys, model->node_key, model->cost,
                                   ndims, dims, unit_at, stencil, periodic != 0, message_bytes,
                                   cost);
}
