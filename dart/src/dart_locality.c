/* Unit locality (see dart_locality.h): per-unit records gathered once at
 * start-up, and per-team domain trees built from them on first query.
 *
 * Set-up (collective over comm_all, after any remapping of unit ids):
 *   every unit: host name; hwloc topology of its real node (the usable part);
 *     the PU it runs on -> its core, socket, NUMA domain; its binding -> how
 *     many cores / NUMA domains it may use
 *   allgather the records; node and real node come from dart__state.
 *
 * Tree of a team (built on the first query of the team, cached per team id
 * and serial, so a new team that reuses an id gets a new tree):
 *   order[] = the team's units sorted by (node, numa, core, team unit id)
 *   level 0 = one domain over all of order[]
 *   level L+1 = every level-L domain cut where the level-(L+1) key changes
 *   => the domains of one level are contiguous in domains[], in tag order,
 *      and their unit ranges partition order[] in ascending order. */
#define _GNU_SOURCE
#include <hwloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dart_internal.h"

#define NUM_LEVELS (DART_LOCALITY_SCOPE_UNIT + 1)

/* What a unit finds out about itself (everything but the node ids). */
typedef struct {
  char host[DART_LOCALITY_HOST_MAX_SIZE];
  int numa, socket, core, cpu, num_cores, num_numa, node_cores;
  int status; /* an hw_status_t */
} hw_record_t;

/* Whether hwloc answered on a unit, or why not. */
typedef enum {
  HW_OK,
  HW_FORCED_OFF, /* DART_TEST_HWLOC_FAIL=1 */
  HW_INIT_FAILED,
  HW_LOAD_FAILED,
  HW_NOT_THIS_SYSTEM,
  HW_NO_CORES,
  HW_NOMEM,
  HW_NUM_STATUS
} hw_status_t;

static const char* const hw_status_text[HW_NUM_STATUS] = {
    "ok",
    "DART_TEST_HWLOC_FAIL=1",
    "hwloc_topology_init failed",
    "hwloc_topology_load failed",
    "the hwloc topology is not this machine's (HWLOC_XMLFILE / HWLOC_SYNTHETIC set?)",
    "hwloc found no cores",
    "out of memory in hwloc"};

typedef struct {
  int level;          /* == scope */
  int relative_index; /* among the parent's children */
  int index;          /* node / numa / core index, team unit id; 0 for the root */
  int parent;         /* index in domains[], -1 for the root */
  int first_child;    /* index in domains[] of the first child */
  int num_children;
  int begin, end; /* the domain's units: order[begin, end) */
} domain_t;

typedef struct {
  uint64_t serial; /* of the team the tree was built for */
  int size;        /* team units */
  int* order;      /* team units in locality order */
  int* position;   /* team unit -> its position in order[] */
  domain_t* domains;
  int level_begin[NUM_LEVELS + 1]; /* level L: domains[level_begin[L], level_begin[L+1]) */
} tree_t;

static dart_unit_locality_t* records; /* per global unit; NULL before set-up */
static tree_t** trees;                /* per team id, built on demand */
static pthread_mutex_t trees_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- set-up ------------------------------------------------------------ */

static void read_host_name(char* host) {
  if (gethostname(host, DART_LOCALITY_HOST_MAX_SIZE) != 0 || host[0] == '\0') {
    char name[MPI_MAX_PROCESSOR_NAME];
    int length = 0;
    if (MPI_Get_processor_name(name, &length) != MPI_SUCCESS || length <= 0) {
      strcpy(name, "unknown-host");
    }
    size_t len = strnlen(name, sizeof name);
    if (len >= DART_LOCALITY_HOST_MAX_SIZE) len = DART_LOCALITY_HOST_MAX_SIZE - 1;
    memcpy(host, name, len);
    host[len] = '\0';
  }
  host[DART_LOCALITY_HOST_MAX_SIZE - 1] = '\0';
}

/* Logical index of the object of `type` whose cpuset holds PU `cpu`, or -1. */
static int index_of_type_holding(hwloc_topology_t topo, hwloc_obj_type_t type, int cpu) {
  int count = hwloc_get_nbobjs_by_type(topo, type);
  for (int i = 0; i < count; ++i) {
    hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type, (unsigned)i);
    if (obj != NULL && obj->cpuset != NULL && hwloc_bitmap_isset(obj->cpuset, (unsigned)cpu)) {
      return (int)obj->logical_index;
    }
  }
  return -1;
}

/* Number of objects of `type` whose cpuset meets `set`. */
static int count_of_type_meeting(hwloc_topology_t topo, hwloc_obj_type_t type,
                                 hwloc_const_bitmap_t set) {
  int count = hwloc_get_nbobjs_by_type(topo, type), meeting = 0;
  for (int i = 0; i < count; ++i) {
    hwloc_obj_t obj = hwloc_get_obj_by_type(topo, type, (unsigned)i);
    if (obj != NULL && obj->cpuset != NULL && hwloc_bitmap_intersects(obj->cpuset, set)) ++meeting;
  }
  return meeting;
}

/* Sets every hardware field of rec to -1 (unknown) and its status. */
static void set_unknown(hw_record_t* rec, hw_status_t status) {
  rec->numa = rec->socket = rec->core = rec->cpu = -1;
  rec->num_cores = rec->num_numa = rec->node_cores = -1;
  rec->status = status;
}

/* Fills the hardware part of rec through hwloc. The topology is the usable
 * part of the machine (hwloc 2 leaves out what cgroups / a container forbid).
 * Returns HW_OK, or why hwloc gave no answer. */
static hw_status_t probe_hwloc(hw_record_t* rec) {
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return HW_INIT_FAILED;
  /* Only cores, packages, NUMA domains and PUs are needed. */
  hwloc_topology_set_cache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE);
  hwloc_topology_set_icache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE);
  hw_status_t status = HW_OK;
  int cores = 0;
  hwloc_bitmap_t where = hwloc_bitmap_alloc(), bound = hwloc_bitmap_alloc();
  if (where == NULL || bound == NULL) {
    status = HW_NOMEM;
  } else if (hwloc_topology_load(topo) != 0) {
    status = HW_LOAD_FAILED;
  } else if (!hwloc_topology_is_thissystem(topo)) {
    status = HW_NOT_THIS_SYSTEM;
  } else if ((cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE)) <= 0) {
    status = HW_NO_CORES;
  } else {
    rec->node_cores = cores;
    if (hwloc_get_last_cpu_location(topo, where, HWLOC_CPUBIND_THREAD) == 0) {
      rec->cpu = hwloc_bitmap_first(where);
    }
    if (rec->cpu < 0) rec->cpu = sched_getcpu();
    if (rec->cpu >= 0) {
      rec->core = index_of_type_holding(topo, HWLOC_OBJ_CORE, rec->cpu);
      rec->socket = index_of_type_holding(topo, HWLOC_OBJ_PACKAGE, rec->cpu);
      rec->numa = index_of_type_holding(topo, HWLOC_OBJ_NUMANODE, rec->cpu);
    }
    /* The binding, restricted to the usable part of the machine. */
    if (hwloc_get_cpubind(topo, bound, HWLOC_CPUBIND_THREAD) != 0) {
      hwloc_bitmap_copy(bound, hwloc_topology_get_allowed_cpuset(topo));
    }
    hwloc_bitmap_and(bound, bound, hwloc_topology_get_topology_cpuset(topo));
    rec->num_cores = count_of_type_meeting(topo, HWLOC_OBJ_CORE, bound);
    rec->num_numa = count_of_type_meeting(topo, HWLOC_OBJ_NUMANODE, bound);
    if (rec->num_cores == 0) rec->num_cores = -1;
    if (rec->num_numa == 0) rec->num_numa = -1;
  }
  hwloc_bitmap_free(where);
  hwloc_bitmap_free(bound);
  hwloc_topology_destroy(topo);
  return status;
}

static void free_tree(tree_t* tree) {
  if (tree == NULL) return;
  free(tree->order);
  free(tree->position);
  free(tree->domains);
  free(tree);
}

void dart__locality_release(void) {
  if (trees != NULL) {
    for (int t = 0; t < DART_MAX_TEAMS; ++t) free_tree(trees[t]);
  }
  free(trees);
  free(records);
  trees = NULL;
  records = NULL;
}

int dart__locality_numa(int unit) {
  if (records == NULL || unit < 0 || unit >= dart__state.size) return -1;
  return records[unit].numa;
}

dart_ret_t dart__locality_renumber(const int* new_id) {
  if (records == NULL) return DART_OK;
  const size_t n = (size_t)dart__state.size;
  dart_unit_locality_t* moved = malloc(n * sizeof *moved);
  if (moved == NULL) return DART_ERR_NOMEM;
  for (size_t u = 0; u < n; ++u) {
    moved[new_id[u]] = records[u];
    moved[new_id[u]].unit = DART_GLOBAL_UNIT_ID((dart_unit_t)new_id[u]);
  }
  free(records);
  records = moved;
  return DART_OK;
}

dart_ret_t dart__locality_setup(const char* call) {
  dart__locality_release();
  hw_record_t mine;
  memset(&mine, 0, sizeof mine); /* all bytes are sent */
  set_unknown(&mine, HW_OK);
  read_host_name(mine.host);
  if (dart__state.config.test_hwloc_fail) {
    set_unknown(&mine, HW_FORCED_OFF);
  } else {
    hw_status_t status = probe_hwloc(&mine);
    if (status != HW_OK) set_unknown(&mine, status);
  }
  const size_t n = (size_t)dart__state.size;
  hw_record_t* all = malloc(n * sizeof *all);
  records = calloc(n, sizeof *records);
  trees = calloc(DART_MAX_TEAMS, sizeof *trees);
  if (all == NULL || records == NULL || trees == NULL) {
    free(all);
    dart__locality_release();
    return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  }
  int ret;
  if (dart__state.yield_when_idle) {
    MPI_Request req = MPI_REQUEST_NULL;
    ret = MPI_Iallgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE,
                         dart__state.comm_all, &req);
    if (ret == MPI_SUCCESS) ret = dart__wait_requests(NULL, 1, &req);
  } else {
    ret = MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE,
                        dart__state.comm_all);
  }
  if (ret != MPI_SUCCESS) {
    free(all);
    dart__locality_release();
    return dart__mpi_error(ret, call, "MPI_Allgather (unit locality)");
  }
  int without = 0, first_without = -1;
  for (size_t g = 0; g < n; ++g) {
    dart_unit_locality_t* r = &records[g];
    r->unit = DART_GLOBAL_UNIT_ID((dart_unit_t)g);
    r->team_unit = DART_UNDEFINED_TEAM_UNIT_ID;
    memcpy(r->host, all[g].host, sizeof r->host);
    r->host[sizeof r->host - 1] = '\0';
    r->node = dart__state.node[g];
    r->real_node = dart__state.real_node[g];
    r->numa = all[g].numa;
    r->socket = all[g].socket;
    r->core = all[g].core;
    r->cpu = all[g].cpu;
    r->num_cores = all[g].num_cores;
    r->num_numa = all[g].num_numa;
    r->node_cores = all[g].node_cores;
    if (all[g].status != HW_OK && without++ == 0) first_without = (int)g;
  }
  /* One line for the run (unit 0): warn if hwloc failed, info if forced off. */
  if (dart__state.myid == 0 && without > 0) {
    int status = all[first_without].status;
    const char* why = status > HW_OK && status < HW_NUM_STATUS ? hw_status_text[status] : "?";
    dart__log(status == HW_FORCED_OFF ? DART_LOG_INFO : DART_LOG_WARN, call,
              "hwloc gave no locality on %d of %zu units (first: unit %d: %s): their NUMA "
              "domain, socket and core are unknown (-1); host names and node ids only",
              without, n, first_without, why);
  }
  free(all);
  const dart_unit_locality_t* me = &records[dart__state.myid];
  dart__log(DART_LOG_DEBUG, call,
            "unit %d: host %s, node %d (real node %d), NUMA domain %d, socket %d, core %d, cpu %d; "
            "binding allows %d of %d cores",
            dart__state.myid, me->host, me->node, me->real_node, me->numa, me->socket, me->core,
            me->cpu, me->num_cores, me->node_cores);
  return DART_OK;
}

/* ---- domain trees ------------------------------------------------------ */

/* Key of global unit g (team unit u) at level 1..4. */
static int level_key(int level, int g, int u) {
  switch (level) {
    case DART_LOCALITY_SCOPE_NODE:
      return records[g].node;
    case DART_LOCALITY_SCOPE_NUMA:
      return records[g].numa;
    case DART_LOCALITY_SCOPE_CORE:
      return records[g].core;
    default:
      return u;
  }
}

static const dart_team_data_t* sort_team; /* for compare_units, under trees_lock */

static int compare_units(const void* a, const void* b) {
  int u = *(const int*)a, v = *(const int*)b;
  int gu = sort_team->l2g[u], gv = sort_team->l2g[v];
  for (int level = DART_LOCALITY_SCOPE_NODE; level <= DART_LOCALITY_SCOPE_UNIT; ++level) {
    int ku = level_key(level, gu, u), kv = level_key(level, gv, v);
    if (ku != kv) return (ku > kv) - (ku < kv);
  }
  return 0;
}

/* Builds the tree of a team. Called under trees_lock. NULL on out of memory. */
static tree_t* build_tree(const dart_team_data_t* team) {
  const int n = team->size;
  tree_t* tree = calloc(1, sizeof *tree);
  if (tree == NULL) return NULL;
  tree->serial = team->serial;
  tree->size = n;
  tree->order = malloc((size_t)n * sizeof *tree->order);
  tree->position = malloc((size_t)n * sizeof *tree->position);
  /* At most 1 + 4n domains: every level has at most n. */
  tree->domains = malloc((1 + (size_t)(NUM_LEVELS - 1) * (size_t)n) * sizeof *tree->domains);
  if (!tree->order || !tree->position || !tree->domains) {
    free_tree(tree);
    return NULL;
  }
  for (int u = 0; u < n; ++u) tree->order[u] = u;
  sort_team = team;
  qsort(tree->order, (size_t)n, sizeof *tree->order, compare_units);
  for (int i = 0; i < n; ++i) tree->position[tree->order[i]] = i;

  tree->domains[0] = (domain_t){.level = 0, .parent = -1, .begin = 0, .end = n};
  tree->level_begin[0] = 0;
  tree->level_begin[1] = 1;
  int count = 1;
  for (int level = 1; level < NUM_LEVELS; ++level) {
    for (int p = tree->level_begin[level - 1]; p < tree->level_begin[level]; ++p) {
      domain_t* parent = &tree->domains[p];
      parent->first_child = count;
      for (int i = parent->begin; i < parent->end;) {
        int u = tree->order[i], key = level_key(level, team->l2g[u], u);
        int j = i + 1;
        while (j < parent->end &&
               level_key(level, team->l2g[tree->order[j]], tree->order[j]) == key) {
          ++j;
        }
        tree->domains[count++] = (domain_t){.level = level,
                                            .relative_index = parent->num_children++,
                                            .index = key,
                                            .parent = p,
                                            .begin = i,
                                            .end = j};
        i = j;
      }
    }
    tree->level_begin[level + 1] = count;
  }
  return tree;
}

/* The team's tree, built on first use. Logs and returns NULL on a bad team
 * (*ret DART_ERR_INVAL), before set-up or out of memory. The tree stays valid
 * while the team lives. */
static const tree_t* team_tree(const char* call, dart_team_t teamid, dart_ret_t* ret) {
  const dart_team_data_t* team = dart__team_checked(call, teamid);
  if (team == NULL) {
    *ret = DART_ERR_INVAL;
    return NULL;
  }
  if (records == NULL || trees == NULL) {
    *ret = DART_LOG_ERROR_RET(DART_ERR_NOTINIT, call, "unit locality is not set up");
    return NULL;
  }
  pthread_mutex_lock(&trees_lock);
  tree_t* tree = trees[teamid];
  if (tree == NULL || tree->serial != team->serial) {
    free_tree(tree);
    tree = trees[teamid] = build_tree(team);
  }
  pthread_mutex_unlock(&trees_lock);
  if (tree == NULL) *ret = DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  return tree;
}

#define TREE_OR_RETURN(var, call, teamid)                       \
  dart_ret_t var##_ret_ = DART_OK;                              \
  const tree_t* var = team_tree((call), (teamid), &var##_ret_); \
  if (var == NULL) return var##_ret_

static bool valid_scope(dart_locality_scope_t scope) {
  return (int)scope >= DART_LOCALITY_SCOPE_GLOBAL && (int)scope <= DART_LOCALITY_SCOPE_UNIT;
}

/* Finds the domain named by tag: DART_ERR_INVAL if malformed (tags are "."
 * or "." separated decimal numbers without leading zeros, each preceded by
 * a "."), DART_ERR_NOTFOUND if no such domain. */
static dart_ret_t find_domain(const char* call, const tree_t* tree, const char* tag, int* out) {
  DART_CHECK_ARG(call, tag != NULL, "tag is NULL");
  if (strcmp(tag, ".") == 0) {
    *out = 0;
    return DART_OK;
  }
  int d = 0;
  for (const char* p = tag;;) {
    if (*p != '.' || p[1] < '0' || p[1] > '9' || (p[1] == '0' && p[2] >= '0' && p[2] <= '9')) {
      return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                                "malformed domain tag '%s' (expected \".\" or e.g. \".0.1\")", tag);
    }
    long value = 0;
    for (++p; *p >= '0' && *p <= '9'; ++p) {
      if (value <= INT32_MAX) value = value * 10 + (*p - '0');
    }
    const domain_t* dom = &tree->domains[d];
    if (value >= dom->num_children) {
      return DART_LOG_ERROR_RET(DART_ERR_NOTFOUND, call, "no domain '%s' in the team", tag);
    }
    d = dom->first_child + (int)value;
    if (*p == '\0') break;
  }
  *out = d;
  return DART_OK;
}

static void describe_domain(const dart_team_data_t* team, const tree_t* tree, int d,
                            dart_domain_locality_t* out) {
  const domain_t* dom = &tree->domains[d];
  memset(out, 0, sizeof *out);
  out->scope = (dart_locality_scope_t)dom->level;
  out->level = dom->level;
  out->relative_index = dom->relative_index;
  out->index = dom->index;
  out->num_units = (size_t)(dom->end - dom->begin);
  out->num_domains = (size_t)dom->num_children;
  if (dom->level > 0) {
    const dart_unit_locality_t* first = &records[team->l2g[tree->order[dom->begin]]];
    memcpy(out->host, first->host, sizeof out->host);
  }
  /* The tag: relative indices from the root down. */
  int path[NUM_LEVELS], depth = 0;
  for (int x = d; tree->domains[x].parent >= 0; x = tree->domains[x].parent) {
    path[depth++] = tree->domains[x].relative_index;
  }
  if (depth == 0) {
    strcpy(out->tag, ".");
  } else {
    size_t len = 0;
    while (depth > 0) {
      len += (size_t)snprintf(out->tag + len, sizeof out->tag - len, ".%d", path[--depth]);
    }
  }
}

/* ---- public API -------------------------------------------------------- */

dart_ret_t dart_unit_locality(dart_team_t teamid, dart_team_unit_t unit,
                              dart_unit_locality_t* loc) {
  static const char* call = "dart_unit_locality";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, loc != NULL, "loc is NULL");
  const dart_team_data_t* team = dart__team_checked(call, teamid);
  if (team == NULL) return DART_ERR_INVAL;
  DART_CHECK_ARG(call, unit.id >= 0 && unit.id < team->size, "unit %d is not in team %d (size %d)",
                 (int)unit.id, (int)teamid, team->size);
  if (records == NULL) {
    return DART_LOG_ERROR_RET(DART_ERR_NOTINIT, call, "unit locality is not set up");
  }
  *loc = records[team->l2g[unit.id]];
  loc->team_unit = unit;
  return DART_OK;
}

dart_ret_t dart_domain_team_locality(dart_team_t teamid, const char* tag,
                                     dart_domain_locality_t* domain) {
  static const char* call = "dart_domain_team_locality";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, domain != NULL, "domain is NULL");
  TREE_OR_RETURN(tree, call, teamid);
  int d = 0;
  dart_ret_t ret = find_domain(call, tree, tag, &d);
  if (ret != DART_OK) return ret;
  describe_domain(dart__team(teamid), tree, d, domain);
  return DART_OK;
}

dart_ret_t dart_domain_scope_count(dart_team_t teamid, dart_locality_scope_t scope, size_t* count) {
  static const char* call = "dart_domain_scope_count";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, count != NULL, "count is NULL");
  DART_CHECK_ARG(call, valid_scope(scope), "unknown locality scope %d", (int)scope);
  TREE_OR_RETURN(tree, call, teamid);
  *count = (size_t)(tree->level_begin[scope + 1] - tree->level_begin[scope]);
  return DART_OK;
}

dart_ret_t dart_domain_scope_locality(dart_team_t teamid, dart_locality_scope_t scope, size_t i,
                                      dart_domain_locality_t* domain) {
  static const char* call = "dart_domain_scope_locality";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, domain != NULL, "domain is NULL");
  DART_CHECK_ARG(call, valid_scope(scope), "unknown locality scope %d", (int)scope);
  TREE_OR_RETURN(tree, call, teamid);
  size_t count = (size_t)(tree->level_begin[scope + 1] - tree->level_begin[scope]);
  DART_CHECK_ARG(call, i < count, "domain %zu of scope %d does not exist (the team has %zu)", i,
                 (int)scope, count);
  describe_domain(dart__team(teamid), tree, tree->level_begin[scope] + (int)i, domain);
  return DART_OK;
}

static int compare_int(const void* a, const void* b) {
  int x = *(const int*)a, y = *(const int*)b;
  return (x > y) - (x < y);
}

dart_ret_t dart_domain_units(dart_team_t teamid, const char* tag, size_t capacity,
                             dart_team_unit_t* units) {
  static const char* call = "dart_domain_units";
  DART_CHECK_INIT(call);
  TREE_OR_RETURN(tree, call, teamid);
  int d = 0;
  dart_ret_t ret = find_domain(call, tree, tag, &d);
  if (ret != DART_OK) return ret;
  const domain_t* dom = &tree->domains[d];
  size_t k = (size_t)(dom->end - dom->begin);
  DART_CHECK_ARG(call, capacity >= k, "room for %zu units, domain '%s' has %zu", capacity, tag, k);
  DART_CHECK_ARG(call, units != NULL, "units is NULL");
  int* ids = malloc(k * sizeof *ids);
  if (ids == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  memcpy(ids, tree->order + dom->begin, k * sizeof *ids);
  qsort(ids, k, sizeof *ids, compare_int);
  for (size_t i = 0; i < k; ++i) units[i] = DART_TEAM_UNIT_ID(ids[i]);
  free(ids);
  return DART_OK;
}

dart_ret_t dart_team_locality_split(dart_team_t teamid, dart_locality_scope_t scope,
                                    size_t num_parts, dart_team_t* newteam) {
  static const char* call = "dart_team_locality_split";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, newteam != NULL, "newteam is NULL");
  DART_CHECK_ARG(call, valid_scope(scope), "unknown locality scope %d", (int)scope);
  DART_CHECK_ARG(call, num_parts >= 1, "num_parts is 0");
  TREE_OR_RETURN(tree, call, teamid);
  const dart_team_data_t* team = dart__team(teamid);
  /* My domain at scope: the one of the level whose unit range holds my
   * position (ranges ascend along the level). */
  const int pos = tree->position[team->myid];
  const int first = tree->level_begin[scope], last = tree->level_begin[scope + 1];
  int lo = first, hi = last - 1;
  while (lo < hi) {
    int mid = lo + (hi - lo + 1) / 2;
    if (tree->domains[mid].begin <= pos)
      lo = mid;
    else
      hi = mid - 1;
  }
  const uint64_t domains = (uint64_t)(last - first), mine = (uint64_t)(lo - first);
  const uint64_t parts = num_parts < domains ? (uint64_t)num_parts : domains;
  /* Domain d goes to part floor(d * parts / domains): contiguous runs whose
   * numbers of domains differ by at most one. */
  int color = (int)(mine * parts / domains);
  return dart_team_split(teamid, color, team->myid, newteam);
}
