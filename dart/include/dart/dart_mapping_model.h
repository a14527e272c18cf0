/* Mapping model: the unit mapping's machine model for a machine described in text, not the
 * running one. A program (a benchmark, a planning tool) describes nodes in the notation of
 * DART_TOPOLOGY_FILE, puts units on them and asks what DART_UNIT_MAPPING would do there and
 * what a layout costs, e.g. 384 Cray nodes x 24 cores on a laptop.
 *
 *   dart_mapping_model_t model;
 *   dart_mapping_model_create(text, "cray.txt", nunits, unit_node, &model, err, sizeof err);
 *   dart_balanced_dims(nunits, 3, dims);
 *   dart_mapping_model_compute(model, DART_UNIT_MAPPING_HILBERT, 3, dims, new_id, NULL);
 *   ... unit_at[new_id[u]] = u ...
 *   dart_mapping_model_cost(model, unit_at, 3, dims, DART_STENCIL_FACES, 1, bytes, &cost);
 *   dart_mapping_model_destroy(&model);
 *
 * Units of a model are 0 .. nunits - 1 (indices into unit_node), not units of the run. The
 * model computes what the run's mapping computes (same algorithm, same cost ladder and cost
 * metric as dart_unit_mapping.h), but knows no NUMA domains: the units of a node are alike.
 * Every call is local and deterministic and needs no dart_init; bad arguments give
 * DART_ERR_INVAL and a log line naming the call and what is wrong.
 *
 * | call                        | cost                                          |
 * |-----------------------------|-----------------------------------------------|
 * | dart_mapping_model_create   | local, O(text length + units * levels)        |
 * | dart_mapping_model_destroy  | local                                         |
 * | dart_mapping_model_info     | local                                         |
 * | dart_mapping_model_link_cost| local, O(levels)                              |
 * | dart_mapping_model_compute  | local, O(units log units) time, O(units) memory |
 * | dart_mapping_model_cost     | local, O(units * stencil size * levels)       | */
#ifndef DART__DART_MAPPING_MODEL_H_
#define DART__DART_MAPPING_MODEL_H_

#include <dart/dart_types.h>
#include <dart/dart_unit_mapping.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A machine description with units placed on its nodes (opaque; owned by the caller). */
typedef struct dart_mapping_model* dart_mapping_model_t;

/* Parses topology_text (the format of DART_TOPOLOGY_FILE; docs/locality-and-mapping.md) and
 * puts unit u on node unit_node[u] (0 .. nodes - 1, the node lines in order) for u < nunits.
 * name labels messages (a file name; NULL: "(topology)"). A malformed text gives
 * DART_ERR_INVAL and "<name>:<line>: <what is wrong>" in err (truncated to errlen; err may be
 * NULL) and in the log; so does a bad argument. On success *model is a new model
 * (dart_mapping_model_destroy), else NULL. Local, O(text length + nunits * levels). */
dart_ret_t dart_mapping_model_create(const char* topology_text, const char* name, int nunits,
                                     const int* unit_node, dart_mapping_model_t* model, char* err,
                                     size_t errlen);

/* Frees *model and sets it to NULL; a NULL *model is fine. DART_ERR_INVAL if model is NULL.
 * Local. */
dart_ret_t dart_mapping_model_destroy(dart_mapping_model_t* model);

/* What a model holds. */
typedef struct {
  int nunits;  /* units placed */
  int nodes;   /* node lines of the text */
  int nlevels; /* rungs of the cost ladder: node, the text's levels bottom up, system */
  char level_names[DART_UNIT_MAPPING_MAX_LEVELS][DART_UNIT_MAPPING_NAME_SIZE];
  dart_link_cost_t cost[DART_UNIT_MAPPING_MAX_LEVELS]; /* per rung */
} dart_mapping_model_info_t;

/* The model's size and cost ladder, as dart_unit_mapping_info reports the run's. Local. */
dart_ret_t dart_mapping_model_info(dart_mapping_model_t model, dart_mapping_model_info_t* info);

/* The rung of the cost ladder units a and b of the model share (0: the same node, ...,
 * nlevels - 1: different top-level groups) and its latency and bandwidth, as
 * dart_unit_link_cost for the run. Local, O(levels). */
dart_ret_t dart_mapping_model_link_cost(dart_mapping_model_t model, int a, int b, int* rung,
                                        dart_link_cost_t* cost);

/* The new id (row-major position in dims) of every unit u of the model under mode, as
 * DART_UNIT_MAPPING computes it at dart_init: new_id[u] for u < nunits, a permutation; never
 * more node crossings (faces, not periodic) than the rank order, which it keeps, setting
 * *used_identity to 1 (if not NULL; else 0), when its own layout is not better. Needs
 * 1 <= ndims <= DART_UNIT_MAPPING_MAX_DIMS and the product of dims == nunits. DART_ERR_NOMEM
 * if memory runs out. Local, O(nunits log nunits) time, O(nunits) memory. */
dart_ret_t dart_mapping_model_compute(dart_mapping_model_t model, dart_unit_mapping_t mode,
                                      int ndims, const int* dims, int* new_id, int* used_identity);

/* The cost of the layout unit_at (unit_at[p] = the unit of the model at row-major position p
 * of dims; every unit exactly once) for the stencil, with wrap-around links if periodic is
 * non-zero, when every unit sends message_bytes to each neighbour: links by rung, node
 * crossings and the modelled time, as dart_unit_mapping_cost for the run. DART_ERR_NOMEM if
 * memory runs out. Local, O(nunits * stencil size * levels). */
dart_ret_t dart_mapping_model_cost(dart_mapping_model_t model, const int* unit_at, int ndims,
                                   const int* dims, dart_stencil_t stencil, int periodic,
                                   size_t message_bytes, dart_unit_mapping_cost_t* cost);

#ifdef __cplusplus
}
#endif

#endif /* DART__DART_MAPPING_MODEL_H_ */
