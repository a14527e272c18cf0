/* Unit locality (see dart_locality.h): per-unit records gathered once at
 * start-up, per-team domain trees built from them on first query, and the
 * operations on copies of a tree (select, exclude, group, split).
 *
 * Set-up (collective over comm_all, after any remapping of unit ids):
 *   every unit: host name; hwloc topology of its real node (the usable part);
 *     the PU it runs on -> its core, socket, NUMA domain, caches; its
 *     binding -> how many cores / NUMA domains / packages it may use, and
 *     the hardware threads per core of those cores
 *   allgather the records; node and real node come from dart__state.
 *
 * Tree of a team (built on the first query of the team, cached per team id
 * and serial, so a new team that reuses an id gets a new tree):
 *   order[] = the team's units sorted by (node, numa, core, team unit id)
 *   build(level, range of order[]): one domain; below UNIT, cut the range
 *     where the next level's key changes and build each piece as a child
 *   normalize(root): bottom-up, every domain's units, cores, nodes and host
 *     from its children; top-down, levels, parents and relative indices
 *   => depth-first order is tag order, so a counter per level gives each
 *      domain its global_index.
 *
 * Copies keep their tags when domains are removed (select, exclude), so a
 * tag names the same domain before and after; find walks down the children
 * whose tag is a prefix of the wanted one. group re-tags what it moves. */
#define _GNU_SOURCE
#include <hwloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dart_internal.h"

/* Levels of a team's tree and their scopes. */
#define NUM_LEVELS 6
enum { LEVEL_GLOBAL, LEVEL_NODE, LEVEL_MODULE, LEVEL_NUMA, LEVEL_CORE, LEVEL_UNIT };
static const dart_locality_scope_t level_scope[NUM_LEVELS] = {
    DART_LOCALITY_SCOPE_GLOBAL, DART_LOCALITY_SCOPE_NODE, DART_LOCALITY_SCOPE_MODULE,
    DART_LOCALITY_SCOPE_NUMA,   DART_LOCALITY_SCOPE_CORE, DART_LOCALITY_SCOPE_UNIT};

#define NUM_CACHES DART_LOCALITY_MAX_CACHE_LEVELS

/* What a unit finds out about itself (everything but the node ids). */
typedef struct {
  char host[DART_LOCALITY_HOST_MAX_SIZE];
  int numa, socket, core, cpu, num_cores, num_numa, num_sockets, node_cores;
  int min_threads, max_threads;
  int cache_sizes[NUM_CACHES], cache_line_sizes[NUM_CACHES], cache_ids[NUM_CACHES];
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
  uint64_t serial;               /* of the team the tree was built for */
  int size;                      /* team units */
  dart_domain_locality_t* root;  /* DART's: never handed to destroy */
  dart_domain_locality_t** leaf; /* team unit -> its UNIT domain */
  dart_unit_locality_t* units;   /* team unit -> its record */
  int* team_unit;                /* global unit -> team unit, -1 if not a member */
  int level_count[NUM_LEVELS];   /* domains per level */
} tree_t;

static dart_unit_placement_t* records; /* per global unit; NULL before set-up */
static dart_hwinfo_t* hwinfos;         /* per global unit */
static tree_t** trees;                 /* per team id, built on demand */
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
  rec->num_cores = rec->num_numa = rec->num_sockets = rec->node_cores = -1;
  rec->min_threads = rec->max_threads = -1;
  for (int c = 0; c < NUM_CACHES; ++c) {
    rec->cache_sizes[c] = rec->cache_line_sizes[c] = rec->cache_ids[c] = -1;
  }
  rec->status = status;
}

/* Data (or unified) caches holding PU `cpu`: size, line size and logical
 * index per level. */
static void read_caches(hwloc_topology_t topo, int cpu, hw_record_t* rec) {
  hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(topo, (unsigned)cpu);
  for (hwloc_obj_t obj = pu; obj != NULL; obj = obj->parent) {
    if (!hwloc_obj_type_is_dcache(obj->type) || obj->attr == NULL) continue;
    int level = (int)obj->attr->cache.depth - 1;
    if (level < 0 || level >= NUM_CACHES) continue;
    rec->cache_sizes[level] = obj->attr->cache.size > INT32_MAX ? -1 : (int)obj->attr->cache.size;
    rec->cache_line_sizes[level] = (int)obj->attr->cache.linesize;
    rec->cache_ids[level] = (int)obj->logical_index;
  }
}

/* Fewest and most hardware threads of the cores meeting `set`. */
static void read_threads(hwloc_topology_t topo, hwloc_const_bitmap_t set, hw_record_t* rec) {
  int count = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
  for (int i = 0; i < count; ++i) {
    hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)i);
    if (core == NULL || core->cpuset == NULL || !hwloc_bitmap_intersects(core->cpuset, set)) {
      continue;
    }
    int threads = hwloc_get_nbobjs_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU);
    if (threads <= 0) continue;
    if (rec->min_threads < 0 || threads < rec->min_threads) rec->min_threads = threads;
    if (threads > rec->max_threads) rec->max_threads = threads;
  }
}

/* Fills the hardware part of rec through hwloc. The topology is the usable
 * part of the machine (hwloc 2 leaves out what cgroups / a container forbid).
 * Returns HW_OK, or why hwloc gave no answer. */
static hw_status_t probe_hwloc(hw_record_t* rec) {
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return HW_INIT_FAILED;
  /* Cores, packages, NUMA domains, PUs and data caches are needed. */
  hwloc_topology_set_cache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL);
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
      read_caches(topo, rec->cpu, rec);
    }
    /* The binding, restricted to the usable part of the machine. */
    if (hwloc_get_cpubind(topo, bound, HWLOC_CPUBIND_THREAD) != 0) {
      hwloc_bitmap_copy(bound, hwloc_topology_get_allowed_cpuset(topo));
    }
    hwloc_bitmap_and(bound, bound, hwloc_topology_get_topology_cpuset(topo));
    rec->num_cores = count_of_type_meeting(topo, HWLOC_OBJ_CORE, bound);
    rec->num_numa = count_of_type_meeting(topo, HWLOC_OBJ_NUMANODE, bound);
    rec->num_sockets = count_of_type_meeting(topo, HWLOC_OBJ_PACKAGE, bound);
    read_threads(topo, bound, rec);
    if (rec->num_cores == 0) rec->num_cores = -1;
    if (rec->num_numa == 0) rec->num_numa = -1;
    if (rec->num_sockets == 0) rec->num_sockets = -1;
  }
  hwloc_bitmap_free(where);
  hwloc_bitmap_free(bound);
  hwloc_topology_destroy(topo);
  return status;
}

static void free_domain(dart_domain_locality_t* d);

static void free_tree(tree_t* tree) {
  if (tree == NULL) return;
  free_domain(tree->root);
  free(tree->leaf);
  free(tree->units);
  free(tree->team_unit);
  free(tree);
}

void dart__locality_release(void) {
  if (trees != NULL) {
    for (int t = 0; t < DART_MAX_TEAMS; ++t) free_tree(trees[t]);
  }
  free(trees);
  free(records);
  free(hwinfos);
  trees = NULL;
  records = NULL;
  hwinfos = NULL;
}

int dart__locality_numa(int unit) {
  if (records == NULL || unit < 0 || unit >= dart__state.size) return -1;
  return records[unit].numa;
}

dart_ret_t dart__locality_renumber(const int* new_id) {
  if (records == NULL) return DART_OK;
  const size_t n = (size_t)dart__state.size;
  dart_unit_placement_t* moved = malloc(n * sizeof *moved);
  dart_hwinfo_t* moved_hw = malloc(n * sizeof *moved_hw);
  if (moved == NULL || moved_hw == NULL) {
    free(moved);
    free(moved_hw);
    return DART_ERR_NOMEM;
  }
  for (size_t u = 0; u < n; ++u) {
    moved[new_id[u]] = records[u];
    moved[new_id[u]].unit = DART_GLOBAL_UNIT_ID((dart_unit_t)new_id[u]);
    moved_hw[new_id[u]] = hwinfos[u];
  }
  free(records);
  free(hwinfos);
  records = moved;
  hwinfos = moved_hw;
  return DART_OK;
}

/* The hwinfo of a unit from its record and placement. */
static void fill_hwinfo(dart_hwinfo_t* hw, const dart_unit_placement_t* r, const hw_record_t* rec) {
  memset(hw, 0, sizeof *hw);
  memcpy(hw->host, r->host, sizeof hw->host);
  hw->num_cores = rec->num_cores;
  hw->num_numa = rec->num_numa;
  hw->numa_id = rec->numa;
  hw->num_sockets = rec->num_sockets;
  hw->core_id = rec->core;
  hw->cpu_id = rec->cpu;
  hw->min_cpu_mhz = hw->max_cpu_mhz = -1;
  for (int c = 0; c < NUM_CACHES; ++c) {
    hw->cache_sizes[c] = rec->cache_sizes[c];
    hw->cache_line_sizes[c] = rec->cache_line_sizes[c];
    hw->cache_ids[c] = rec->cache_ids[c];
  }
  hw->min_threads = rec->min_threads;
  hw->max_threads = rec->max_threads;
  hw->max_shmem_mbps = hw->system_memory_bytes = hw->numa_memory_bytes = -1;
  const dart_locality_scope_pos_t known[] = {{DART_LOCALITY_SCOPE_CORE, rec->core},
                                             {DART_LOCALITY_SCOPE_NUMA, rec->numa},
                                             {DART_LOCALITY_SCOPE_PACKAGE, rec->socket},
                                             {DART_LOCALITY_SCOPE_NODE, r->node}};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; ++i) {
    if (known[i].index >= 0) hw->scopes[hw->num_scopes++] = known[i];
  }
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
  hwinfos = calloc(n, sizeof *hwinfos);
  trees = calloc(DART_MAX_TEAMS, sizeof *trees);
  if (all == NULL || records == NULL || hwinfos == NULL || trees == NULL) {
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
    dart_unit_placement_t* r = &records[g];
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
    fill_hwinfo(&hwinfos[g], r, &all[g]);
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
  const dart_unit_placement_t* me = &records[dart__state.myid];
  dart__log(DART_LOG_DEBUG, call,
            "unit %d: host %s, node %d (real node %d), NUMA domain %d, socket %d, core %d, cpu %d; "
            "binding allows %d of %d cores",
            dart__state.myid, me->host, me->node, me->real_node, me->numa, me->socket, me->core,
            me->cpu, me->num_cores, me->node_cores);
  return DART_OK;
}

/* ---- domains: allocation, copies, walks -------------------------------- */

static void free_domain(dart_domain_locality_t* d) {
  if (d == NULL) return;
  for (int i = 0; i < d->num_domains; ++i) free_domain(d->children[i]);
  free(d->children);
  free(d->unit_ids);
  free(d->aliases);
  free(d);
}

/* A fresh domain: no units, no children, scope UNDEFINED, tag ".". */
static dart_domain_locality_t* new_domain(void) {
  dart_domain_locality_t* d = calloc(1, sizeof *d);
  if (d == NULL) return NULL;
  strcpy(d->domain_tag, ".");
  d->scope = DART_LOCALITY_SCOPE_UNDEFINED;
  d->team = DART_TEAM_NULL;
  d->node_id = -1;
  d->num_cores = -1;
  d->shared_mem_bytes = -1;
  return d;
}

/* A deep copy of src with parent `parent`, or NULL on out of memory. */
static dart_domain_locality_t* copy_domain(const dart_domain_locality_t* src,
                                           dart_domain_locality_t* parent) {
  dart_domain_locality_t* d = malloc(sizeof *d);
  if (d == NULL) return NULL;
  *d = *src;
  d->parent = parent;
  d->aliases = NULL;
  d->num_aliases = 0;
  d->unit_ids = NULL;
  d->children = NULL;
  d->num_domains = 0;
  if (src->num_units > 0) {
    d->unit_ids = malloc((size_t)src->num_units * sizeof *d->unit_ids);
    if (d->unit_ids == NULL) goto fail;
    memcpy(d->unit_ids, src->unit_ids, (size_t)src->num_units * sizeof *d->unit_ids);
  }
  if (src->num_domains > 0) {
    d->children = calloc((size_t)src->num_domains, sizeof *d->children);
    if (d->children == NULL) goto fail;
    for (int i = 0; i < src->num_domains; ++i) {
      d->children[i] = copy_domain(src->children[i], d);
      if (d->children[i] == NULL) goto fail;
      d->num_domains = i + 1;
    }
  }
  return d;
fail:
  free_domain(d);
  return NULL;
}

static const dart_domain_locality_t* root_of(const dart_domain_locality_t* d) {
  while (d->parent != NULL) d = d->parent;
  return d;
}

/* True if d belongs to one of DART's team trees. */
static bool owned_by_dart(const dart_domain_locality_t* d) {
  const dart_domain_locality_t* root = root_of(d);
  bool owned = false;
  pthread_mutex_lock(&trees_lock);
  for (int t = 0; trees != NULL && t < DART_MAX_TEAMS && !owned; ++t) {
    owned = trees[t] != NULL && trees[t]->root == root;
  }
  pthread_mutex_unlock(&trees_lock);
  return owned;
}

/* True if tag is well formed: "." or ".a.b..." with decimal components
 * without leading zeros, shorter than DART_LOCALITY_DOMAIN_TAG_MAX_SIZE. */
static bool valid_tag(const char* tag) {
  if (tag == NULL || strnlen(tag, DART_LOCALITY_DOMAIN_TAG_MAX_SIZE) >=
                         (size_t)DART_LOCALITY_DOMAIN_TAG_MAX_SIZE) {
    return false;
  }
  if (strcmp(tag, ".") == 0) return true;
  if (tag[0] == '\0') return false;
  for (const char* p = tag; *p != '\0';) {
    if (*p != '.' || p[1] < '0' || p[1] > '9' || (p[1] == '0' && p[2] >= '0' && p[2] <= '9')) {
      return false;
    }
    for (++p; *p >= '0' && *p <= '9'; ++p) {
    }
  }
  return true;
}

/* True if `tag` names `outer` or a domain inside it (by tag). */
static bool tag_inside(const char* tag, const char* outer) {
  if (strcmp(outer, ".") == 0) return tag[0] == '.';
  size_t n = strlen(outer);
  return strncmp(tag, outer, n) == 0 && (tag[n] == '\0' || tag[n] == '.');
}

/* The domain named tag in or below d, or NULL. */
static dart_domain_locality_t* find_below(const dart_domain_locality_t* d, const char* tag) {
  if (strcmp(d->domain_tag, tag) == 0) return (dart_domain_locality_t*)d;
  for (int i = 0; i < d->num_domains; ++i) {
    if (tag_inside(tag, d->children[i]->domain_tag)) return find_below(d->children[i], tag);
  }
  return NULL;
}

/* "<outer>.<k>" (or ".<k>" below the root) into out; false if too long. */
static bool child_tag(char* out, const char* outer, int k) {
  char tag[2 * DART_LOCALITY_DOMAIN_TAG_MAX_SIZE];
  int len = snprintf(tag, sizeof tag, "%s.%d", strcmp(outer, ".") == 0 ? "" : outer, k);
  if (len <= 0 || len >= DART_LOCALITY_DOMAIN_TAG_MAX_SIZE) return false;
  memcpy(out, tag, (size_t)len + 1);
  return true;
}

/* The last component of a tag (-1 for the root). */
static int last_component(const char* tag) {
  const char* dot = strrchr(tag, '.');
  return dot == NULL || dot[1] == '\0' ? -1 : atoi(dot + 1);
}

/* Gives d the tag `tag` and re-tags everything below it alike (each domain
 * keeps the part of its tag below d). */
static void retag(dart_domain_locality_t* d, const char* tag) {
  char old[DART_LOCALITY_DOMAIN_TAG_MAX_SIZE];
  strcpy(old, d->domain_tag);
  strcpy(d->domain_tag, tag);
  const size_t skip = strcmp(old, ".") == 0 ? 0 : strlen(old);
  for (int i = 0; i < d->num_domains; ++i) {
    char t[2 * DART_LOCALITY_DOMAIN_TAG_MAX_SIZE];
    snprintf(t, sizeof t, "%s%s", strcmp(tag, ".") == 0 ? "" : tag,
             d->children[i]->domain_tag + skip);
    t[DART_LOCALITY_DOMAIN_TAG_MAX_SIZE - 1] = '\0';
    retag(d->children[i], t);
  }
}

/* Length of the longest tag in or below d. */
static size_t longest_tag(const dart_domain_locality_t* d) {
  size_t n = strlen(d->domain_tag);
  for (int i = 0; i < d->num_domains; ++i) {
    size_t c = longest_tag(d->children[i]);
    if (c > n) n = c;
  }
  return n;
}

static int compare_global(const void* a, const void* b) {
  int x = ((const dart_global_unit_t*)a)->id, y = ((const dart_global_unit_t*)b)->id;
  return (x > y) - (x < y);
}

/* Makes d consistent with its children, bottom-up: units (the union of the
 * children's, ascending global id), cores, nodes, host, symmetry; children
 * left without units are removed (a domain that had children and lost them
 * all has no units). Top-down: parents, levels, relative indices. */
static dart_ret_t normalize(dart_domain_locality_t* d) {
  if (d->num_domains == 0) return DART_OK; /* a leaf keeps its units */
  int kept = 0, units = 0;
  for (int i = 0; i < d->num_domains; ++i) {
    dart_domain_locality_t* c = d->children[i];
    c->parent = d;
    c->level = d->level + 1;
    dart_ret_t ret = normalize(c);
    if (ret != DART_OK) return ret;
    if (c->num_units == 0) {
      free_domain(c);
      continue;
    }
    c->relative_index = kept;
    d->children[kept++] = c;
    units += c->num_units;
  }
  d->num_domains = kept;
  dart_global_unit_t* ids = NULL;
  if (units > 0) {
    ids = malloc((size_t)units * sizeof *ids);
    if (ids == NULL) return DART_ERR_NOMEM;
  }
  int n = 0, cores = 0, nodes = 0, node = -1;
  bool same_host = true, symmetric = true;
  for (int i = 0; i < kept; ++i) {
    const dart_domain_locality_t* c = d->children[i];
    memcpy(ids + n, c->unit_ids, (size_t)c->num_units * sizeof *ids);
    n += c->num_units;
    cores += c->num_cores > 0 ? c->num_cores : 0;
    symmetric = symmetric && c->num_cores == d->children[0]->num_cores;
    same_host = same_host && strcmp(c->host, d->children[0]->host) == 0;
    if (c->node_id >= 0) {
      bool seen = false;
      for (int j = 0; j < i && !seen; ++j) seen = d->children[j]->node_id == c->node_id;
      if (!seen) ++nodes;
      node = c->node_id;
    } else {
      nodes += c->num_nodes;
    }
  }
  if (n > 0) qsort(ids, (size_t)n, sizeof *ids, compare_global);
  free(d->unit_ids);
  d->unit_ids = ids;
  d->num_units = n;
  d->is_symmetric = symmetric;
  d->num_nodes = nodes;
  d->node_id = nodes == 1 ? node : -1;
  if (kept > 0 && same_host) {
    memcpy(d->host, d->children[0]->host, sizeof d->host);
  } else {
    d->host[0] = '\0';
  }
  /* A node keeps its usable cores when hwloc knew them; a core is 1. */
  if (!(d->scope == DART_LOCALITY_SCOPE_NODE && d->num_cores > 0) &&
      d->scope != DART_LOCALITY_SCOPE_CORE) {
    d->num_cores = cores;
  }
  return DART_OK;
}

/* Appends d's domains at scope (d itself if it has it; below otherwise) to
 * out[*n], growing it. */
static dart_ret_t collect_scope(const dart_domain_locality_t* d, dart_locality_scope_t scope,
                                dart_domain_locality_t*** out, int* n, int* cap) {
  if (d->scope == scope) {
    if (*n == *cap) {
      int grown = *cap == 0 ? 16 : 2 * *cap;
      dart_domain_locality_t** more = realloc(*out, (size_t)grown * sizeof *more);
      if (more == NULL) return DART_ERR_NOMEM;
      *out = more;
      *cap = grown;
    }
    (*out)[(*n)++] = (dart_domain_locality_t*)d;
    return DART_OK;
  }
  for (int i = 0; i < d->num_domains; ++i) {
    dart_ret_t ret = collect_scope(d->children[i], scope, out, n, cap);
    if (ret != DART_OK) return ret;
  }
  return DART_OK;
}

/* True if d's tag is one of tags[0, n). */
static bool named(const dart_domain_locality_t* d, int n, const char** tags) {
  for (int i = 0; i < n; ++i) {
    if (strcmp(d->domain_tag, tags[i]) == 0) return true;
  }
  return false;
}

/* Keeps below d only named domains, their subtrees and their ancestors.
 * True if d is to be kept. */
static bool keep_selected(dart_domain_locality_t* d, int n, const char** tags) {
  if (named(d, n, tags)) return true;
  int kept = 0;
  for (int i = 0; i < d->num_domains; ++i) {
    if (keep_selected(d->children[i], n, tags)) {
      d->children[kept++] = d->children[i];
    } else {
      free_domain(d->children[i]);
    }
  }
  d->num_domains = kept;
  if (kept == 0) d->num_units = 0; /* nothing named inside: goes */
  return kept > 0;
}

/* Removes the named domains below d. */
static void remove_named(dart_domain_locality_t* d, int n, const char** tags) {
  int kept = 0;
  const int had = d->num_domains;
  for (int i = 0; i < had; ++i) {
    if (named(d->children[i], n, tags)) {
      free_domain(d->children[i]);
    } else {
      remove_named(d->children[i], n, tags);
      d->children[kept++] = d->children[i];
    }
  }
  d->num_domains = kept;
  if (had > 0 && kept == 0) d->num_units = 0; /* emptied: goes */
}

/* Checks the caller's copy and its tags: every tag well formed and naming a
 * domain in (strictly: below) d. */
static dart_ret_t check_tags(const char* call, const dart_domain_locality_t* d, int n,
                             const char** tags, bool strictly) {
  DART_CHECK_ARG(call, n >= 1, "%d domain tags", n);
  DART_CHECK_ARG(call, tags != NULL, "domain tags is NULL");
  for (int i = 0; i < n; ++i) {
    DART_CHECK_ARG(call, valid_tag(tags[i]), "malformed domain tag '%s'",
                   tags[i] == NULL ? "(null)" : tags[i]);
    const dart_domain_locality_t* f = find_below(d, tags[i]);
    if (f == NULL || (strictly && f == d)) {
      return DART_LOG_ERROR_RET(DART_ERR_NOTFOUND, call, "no domain '%s' %s '%s'", tags[i],
                                strictly ? "strictly inside" : "in", d->domain_tag);
    }
  }
  return DART_OK;
}

/* Checks that d is a domain the caller may change. */
static dart_ret_t check_mutable(const char* call, const dart_domain_locality_t* d) {
  DART_CHECK_ARG(call, d != NULL, "domain is NULL");
  DART_CHECK_ARG(call, !owned_by_dart(d),
                 "domain '%s' belongs to DART's tree of team %d: change a copy "
                 "(dart_domain_clone)",
                 d->domain_tag, (int)d->team);
  return DART_OK;
}

/* ---- team trees -------------------------------------------------------- */

/* Key of global unit g (team unit u) at level 1..5. */
static int level_key(int level, int g, int u) {
  switch (level) {
    case LEVEL_NODE:
      return records[g].node;
    case LEVEL_MODULE:
      return 0;
    case LEVEL_NUMA:
      return records[g].numa;
    case LEVEL_CORE:
      return records[g].core;
    default:
      return u;
  }
}

static const dart_team_data_t* sort_team; /* for compare_units, under trees_lock */

static int compare_units(const void* a, const void* b) {
  int u = *(const int*)a, v = *(const int*)b;
  int gu = sort_team->l2g[u], gv = sort_team->l2g[v];
  for (int level = LEVEL_NODE; level <= LEVEL_UNIT; ++level) {
    int ku = level_key(level, gu, u), kv = level_key(level, gv, v);
    if (ku != kv) return (ku > kv) - (ku < kv);
  }
  return 0;
}

/* The domain of `level` over order[begin, end) and everything below it,
 * its relative index `rel` (structure and leaves only: normalize fills
 * the rest). NULL on out of memory. */
static dart_domain_locality_t* build_domain(tree_t* tree, const dart_team_data_t* team,
                                            const int* order, int level, int begin, int end,
                                            dart_domain_locality_t* parent, int rel) {
  dart_domain_locality_t* d = new_domain();
  if (d == NULL) return NULL;
  d->scope = level_scope[level];
  d->level = level;
  d->team = team->id;
  d->parent = parent;
  d->relative_index = rel;
  d->global_index = tree->level_count[level]++;
  if (parent != NULL) child_tag(d->domain_tag, parent->domain_tag, rel);
  const dart_unit_placement_t* first = &records[team->l2g[order[begin]]];
  if (level == LEVEL_NODE) d->num_cores = first->node_cores > 0 ? first->node_cores : -1;
  if (level == LEVEL_CORE) d->num_cores = 1;
  if (level == LEVEL_UNIT) {
    const int u = order[begin];
    d->unit_ids = malloc(sizeof *d->unit_ids);
    if (d->unit_ids == NULL) {
      free_domain(d);
      return NULL;
    }
    d->unit_ids[0] = DART_GLOBAL_UNIT_ID((dart_unit_t)team->l2g[u]);
    d->num_units = 1;
    d->num_nodes = 1;
    d->node_id = first->node;
    d->num_cores = first->num_cores;
    memcpy(d->host, first->host, sizeof d->host);
    tree->leaf[u] = d;
    return d;
  }
  /* Children: the pieces of the range where the next level's key changes. */
  int pieces = 0;
  for (int i = begin; i < end;) {
    const int key = level_key(level + 1, team->l2g[order[i]], order[i]);
    while (i < end && level_key(level + 1, team->l2g[order[i]], order[i]) == key) ++i;
    ++pieces;
  }
  d->children = calloc((size_t)pieces, sizeof *d->children);
  if (d->children == NULL) {
    free_domain(d);
    return NULL;
  }
  for (int i = begin; i < end;) {
    const int key = level_key(level + 1, team->l2g[order[i]], order[i]);
    int j = i + 1;
    while (j < end && level_key(level + 1, team->l2g[order[j]], order[j]) == key) ++j;
    dart_domain_locality_t* c = build_domain(tree, team, order, level + 1, i, j, d, d->num_domains);
    if (c == NULL) {
      free_domain(d);
      return NULL;
    }
    d->children[d->num_domains++] = c;
    i = j;
  }
  return d;
}

/* Builds the tree of a team. Called under trees_lock. NULL on out of memory. */
static tree_t* build_tree(const dart_team_data_t* team) {
  const int n = team->size;
  tree_t* tree = calloc(1, sizeof *tree);
  int* order = malloc((size_t)n * sizeof *order);
  if (tree == NULL || order == NULL) goto fail;
  tree->serial = team->serial;
  tree->size = n;
  tree->leaf = calloc((size_t)n, sizeof *tree->leaf);
  tree->units = calloc((size_t)n, sizeof *tree->units);
  tree->team_unit = malloc((size_t)dart__state.size * sizeof *tree->team_unit);
  if (!tree->leaf || !tree->units || !tree->team_unit) goto fail;
  for (int g = 0; g < dart__state.size; ++g) tree->team_unit[g] = -1;
  for (int u = 0; u < n; ++u) {
    order[u] = u;
    tree->team_unit[team->l2g[u]] = u;
  }
  sort_team = team;
  qsort(order, (size_t)n, sizeof *order, compare_units);
  tree->root = build_domain(tree, team, order, LEVEL_GLOBAL, 0, n, NULL, 0);
  if (tree->root == NULL || normalize(tree->root) != DART_OK) goto fail;
  for (int u = 0; u < n; ++u) {
    dart_unit_locality_t* r = &tree->units[u];
    r->unit = DART_TEAM_UNIT_ID(u);
    r->team = team->id;
    r->hwinfo = hwinfos[team->l2g[u]];
    /* The unit's domain is its core's (DASH's): the UNIT leaf's parent. */
    const dart_domain_locality_t* home =
        tree->leaf[u]->parent != NULL ? tree->leaf[u]->parent : tree->leaf[u];
    memcpy(r->domain_tag, home->domain_tag, sizeof r->domain_tag);
  }
  free(order);
  return tree;
fail:
  free(order);
  free_tree(tree);
  return NULL;
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

/* Level of a scope in team trees, or -1 if the trees do not use it. */
static int scope_level(dart_locality_scope_t scope) {
  for (int l = 0; l < NUM_LEVELS; ++l) {
    if (level_scope[l] == scope) return l;
  }
  return -1;
}

/* The domain named tag in the team's tree: DART_ERR_INVAL if malformed,
 * DART_ERR_NOTFOUND if there is none. */
static dart_ret_t find_in_tree(const char* call, const tree_t* tree, const char* tag,
                               dart_domain_locality_t** out) {
  DART_CHECK_ARG(call, tag != NULL, "domain tag is NULL");
  DART_CHECK_ARG(call, valid_tag(tag),
                 "malformed domain tag '%s' (expected \".\" or e.g. \".0.1\")", tag);
  *out = find_below(tree->root, tag);
  if (*out == NULL) {
    return DART_LOG_ERROR_RET(DART_ERR_NOTFOUND, call, "no domain '%s' in the team", tag);
  }
  return DART_OK;
}

/* ---- DASH's calls ------------------------------------------------------ */

dart_ret_t dart_team_locality_init(dart_team_t teamid) {
  static const char* call = "dart_team_locality_init";
  DART_CHECK_INIT(call);
  TREE_OR_RETURN(tree, call, teamid);
  (void)tree;
  return DART_OK;
}

dart_ret_t dart_team_locality_finalize(dart_team_t teamid) {
  static const char* call = "dart_team_locality_finalize";
  DART_CHECK_INIT(call);
  if (dart__team_checked(call, teamid) == NULL) return DART_ERR_INVAL;
  pthread_mutex_lock(&trees_lock);
  if (trees != NULL) {
    free_tree(trees[teamid]);
    trees[teamid] = NULL;
  }
  pthread_mutex_unlock(&trees_lock);
  return DART_OK;
}

dart_ret_t dart_domain_team_locality(dart_team_t teamid, const char* domain_tag,
                                     dart_domain_locality_t** domain_out) {
  static const char* call = "dart_domain_team_locality";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, domain_out != NULL, "domain_out is NULL");
  TREE_OR_RETURN(tree, call, teamid);
  return find_in_tree(call, tree, domain_tag, domain_out);
}

dart_ret_t dart_domain_create(dart_domain_locality_t** domain_out) {
  static const char* call = "dart_domain_create";
  DART_CHECK_ARG(call, domain_out != NULL, "domain_out is NULL");
  *domain_out = new_domain();
  if (*domain_out == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  return DART_OK;
}

dart_ret_t dart_domain_clone(const dart_domain_locality_t* domain_in,
                             dart_domain_locality_t** domain_out) {
  static const char* call = "dart_domain_clone";
  DART_CHECK_ARG(call, domain_in != NULL, "domain_in is NULL");
  DART_CHECK_ARG(call, domain_out != NULL, "domain_out is NULL");
  *domain_out = copy_domain(domain_in, NULL);
  if (*domain_out == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  return DART_OK;
}

dart_ret_t dart_domain_destroy(dart_domain_locality_t* domain) {
  static const char* call = "dart_domain_destroy";
  dart_ret_t ret = check_mutable(call, domain);
  if (ret != DART_OK) return ret;
  DART_CHECK_ARG(call, domain->parent == NULL,
                 "domain '%s' is inside another (destroy the root of the copy)",
                 domain->domain_tag);
  free_domain(domain);
  return DART_OK;
}

dart_ret_t dart_domain_assign(dart_domain_locality_t* domain_lhs,
                              const dart_domain_locality_t* domain_rhs) {
  static const char* call = "dart_domain_assign";
  dart_ret_t ret = check_mutable(call, domain_lhs);
  if (ret != DART_OK) return ret;
  DART_CHECK_ARG(call, domain_rhs != NULL, "domain_rhs is NULL");
  if (domain_lhs == domain_rhs) return DART_OK;
  dart_domain_locality_t* copy = copy_domain(domain_rhs, domain_lhs->parent);
  if (copy == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  for (int i = 0; i < domain_lhs->num_domains; ++i) free_domain(domain_lhs->children[i]);
  free(domain_lhs->children);
  free(domain_lhs->unit_ids);
  free(domain_lhs->aliases);
  *domain_lhs = *copy;
  for (int i = 0; i < domain_lhs->num_domains; ++i) domain_lhs->children[i]->parent = domain_lhs;
  free(copy);
  return DART_OK;
}

dart_ret_t dart_domain_find(const dart_domain_locality_t* domain_in, const char* domain_tag,
                            dart_domain_locality_t** subdomain_out) {
  static const char* call = "dart_domain_find";
  DART_CHECK_ARG(call, domain_in != NULL, "domain_in is NULL");
  DART_CHECK_ARG(call, subdomain_out != NULL, "subdomain_out is NULL");
  DART_CHECK_ARG(call, valid_tag(domain_tag), "malformed domain tag '%s'",
                 domain_tag == NULL ? "(null)" : domain_tag);
  *subdomain_out = find_below(domain_in, domain_tag);
  if (*subdomain_out == NULL) {
    return DART_LOG_ERROR_RET(DART_ERR_NOTFOUND, call, "no domain '%s' in '%s'", domain_tag,
                              domain_in->domain_tag);
  }
  return DART_OK;
}

dart_ret_t dart_domain_select(dart_domain_locality_t* domain_in, int num_subdomain_tags,
                              const char** subdomain_tags) {
  static const char* call = "dart_domain_select";
  dart_ret_t ret = check_mutable(call, domain_in);
  if (ret == DART_OK) ret = check_tags(call, domain_in, num_subdomain_tags, subdomain_tags, false);
  if (ret != DART_OK) return ret;
  keep_selected(domain_in, num_subdomain_tags, subdomain_tags);
  ret = normalize(domain_in);
  return ret == DART_OK ? DART_OK : DART_LOG_ERROR_RET(ret, call, "out of memory");
}

dart_ret_t dart_domain_exclude(dart_domain_locality_t* domain_in, int num_subdomain_tags,
                               const char** subdomain_tags) {
  static const char* call = "dart_domain_exclude";
  dart_ret_t ret = check_mutable(call, domain_in);
  if (ret == DART_OK) ret = check_tags(call, domain_in, num_subdomain_tags, subdomain_tags, true);
  if (ret != DART_OK) return ret;
  remove_named(domain_in, num_subdomain_tags, subdomain_tags);
  ret = normalize(domain_in);
  return ret == DART_OK ? DART_OK : DART_LOG_ERROR_RET(ret, call, "out of memory");
}

/* Inserts d as child `at` (-1: last) of parent, tagged one past the
 * largest last component of parent's children. */
static dart_ret_t insert_child(const char* call, dart_domain_locality_t* parent,
                               dart_domain_locality_t* d, int at) {
  int next = 0;
  for (int i = 0; i < parent->num_domains; ++i) {
    int k = last_component(parent->children[i]->domain_tag);
    if (k >= next) next = k + 1;
  }
  char tag[DART_LOCALITY_DOMAIN_TAG_MAX_SIZE];
  const size_t below =
      longest_tag(d) - (strcmp(d->domain_tag, ".") == 0 ? 0 : strlen(d->domain_tag));
  if (!child_tag(tag, parent->domain_tag, next) ||
      strlen(tag) + below >= (size_t)DART_LOCALITY_DOMAIN_TAG_MAX_SIZE) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call, "tags below '%s' would exceed %d bytes",
                              parent->domain_tag, DART_LOCALITY_DOMAIN_TAG_MAX_SIZE - 1);
  }
  dart_domain_locality_t** grown =
      realloc(parent->children, (size_t)(parent->num_domains + 1) * sizeof *grown);
  if (grown == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  parent->children = grown;
  if (at < 0 || at > parent->num_domains) at = parent->num_domains;
  memmove(grown + at + 1, grown + at, (size_t)(parent->num_domains - at) * sizeof *grown);
  grown[at] = d;
  parent->num_domains++;
  d->parent = parent;
  retag(d, tag);
  return DART_OK;
}

/* Detaches d from its parent (the parent keeps its units until normalized). */
static void detach(dart_domain_locality_t* d) {
  dart_domain_locality_t* p = d->parent;
  int k = 0;
  for (int i = 0; i < p->num_domains; ++i) {
    if (p->children[i] != d) p->children[k++] = p->children[i];
  }
  p->num_domains = k;
  d->parent = NULL;
}

/* True if some unit of a is in b. */
static bool units_meet(const dart_domain_locality_t* a, const dart_domain_locality_t* b) {
  for (int i = 0; i < a->num_units; ++i) {
    if (bsearch(&a->unit_ids[i], b->unit_ids, (size_t)b->num_units, sizeof *b->unit_ids,
                compare_global) != NULL) {
      return true;
    }
  }
  return false;
}

dart_ret_t dart_domain_add_subdomain(dart_domain_locality_t* domain,
                                     dart_domain_locality_t* subdomain, int subdomain_rel_id) {
  static const char* call = "dart_domain_add_subdomain";
  dart_ret_t ret = check_mutable(call, domain);
  if (ret != DART_OK) return ret;
  DART_CHECK_ARG(call, subdomain != NULL, "subdomain is NULL");
  dart_domain_locality_t* root = (dart_domain_locality_t*)root_of(domain);
  DART_CHECK_ARG(call, !units_meet(subdomain, root),
                 "units of '%s' are in the hierarchy of '%s' already", subdomain->domain_tag,
                 domain->domain_tag);
  dart_domain_locality_t* copy = copy_domain(subdomain, NULL);
  if (copy == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  ret = insert_child(call, domain, copy, subdomain_rel_id);
  if (ret != DART_OK) {
    free_domain(copy);
    return ret;
  }
  return normalize(root);
}

dart_ret_t dart_domain_move_subdomain(dart_domain_locality_t* domain,
                                      dart_domain_locality_t* new_parent_domain,
                                      int new_domain_rel_id) {
  static const char* call = "dart_domain_move_subdomain";
  dart_ret_t ret = check_mutable(call, domain);
  if (ret != DART_OK) return ret;
  DART_CHECK_ARG(call, new_parent_domain != NULL, "new_parent_domain is NULL");
  DART_CHECK_ARG(call, domain->parent != NULL, "domain '%s' is a root", domain->domain_tag);
  DART_CHECK_ARG(call, root_of(domain) == root_of(new_parent_domain),
                 "'%s' and '%s' are in different hierarchies", domain->domain_tag,
                 new_parent_domain->domain_tag);
  for (const dart_domain_locality_t* p = new_parent_domain; p != NULL; p = p->parent) {
    DART_CHECK_ARG(call, p != domain, "new parent '%s' lies inside '%s'",
                   new_parent_domain->domain_tag, domain->domain_tag);
  }
  dart_domain_locality_t* old_parent = domain->parent;
  dart_domain_locality_t* root = (dart_domain_locality_t*)root_of(domain);
  const int old_index = domain->relative_index;
  detach(domain);
  ret = insert_child(call, new_parent_domain, domain, new_domain_rel_id);
  if (ret != DART_OK) {
    /* Put it back where it was (its tag is unchanged). */
    dart_domain_locality_t** c = old_parent->children;
    int n = old_parent->num_domains, at = old_index < n ? old_index : n;
    memmove(c + at + 1, c + at, (size_t)(n - at) * sizeof *c); /* room was there */
    c[at] = domain;
    old_parent->num_domains++;
    domain->parent = old_parent;
    return ret;
  }
  return normalize(root);
}

dart_ret_t dart_domain_scope_domains(const dart_domain_locality_t* domain_in,
                                     dart_locality_scope_t scope, int* num_domains_out,
                                     dart_domain_locality_t*** domains_out) {
  static const char* call = "dart_domain_scope_domains";
  DART_CHECK_ARG(call, domain_in != NULL, "domain_in is NULL");
  DART_CHECK_ARG(call, num_domains_out != NULL && domains_out != NULL, "an output is NULL");
  *num_domains_out = 0;
  *domains_out = NULL;
  int cap = 0;
  dart_ret_t ret = collect_scope(domain_in, scope, domains_out, num_domains_out, &cap);
  if (ret != DART_OK) {
    free(*domains_out);
    *domains_out = NULL;
    *num_domains_out = 0;
    return DART_LOG_ERROR_RET(ret, call, "out of memory");
  }
  if (*num_domains_out == 0) {
    dart__log(DART_LOG_DEBUG, call, "no domain of scope %d in '%s'", (int)scope,
              domain_in->domain_tag);
    return DART_ERR_NOTFOUND;
  }
  return DART_OK;
}

dart_ret_t dart_domain_scope_tags(const dart_domain_locality_t* domain_in,
                                  dart_locality_scope_t scope, int* num_domains_out,
                                  char*** domain_tags_out) {
  static const char* call = "dart_domain_scope_tags";
  DART_CHECK_ARG(call, domain_tags_out != NULL, "domain_tags_out is NULL");
  *domain_tags_out = NULL;
  dart_domain_locality_t** domains = NULL;
  dart_ret_t ret = dart_domain_scope_domains(domain_in, scope, num_domains_out, &domains);
  if (ret != DART_OK) return ret;
  char** tags = calloc((size_t)*num_domains_out, sizeof *tags);
  for (int i = 0; tags != NULL && i < *num_domains_out; ++i) {
    tags[i] = strdup(domains[i]->domain_tag);
    if (tags[i] == NULL) {
      for (int j = 0; j < i; ++j) free(tags[j]);
      free(tags);
      tags = NULL;
    }
  }
  free(domains);
  if (tags == NULL) {
    *num_domains_out = 0;
    return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  }
  *domain_tags_out = tags;
  return DART_OK;
}

/* True if a is a strict ancestor of b. */
static bool strictly_above(const dart_domain_locality_t* a, const dart_domain_locality_t* b) {
  for (const dart_domain_locality_t* p = b->parent; p != NULL; p = p->parent) {
    if (p == a) return true;
  }
  return false;
}

/* group, on members[0, n) found in domain_in (distinct, none inside
 * another, none domain_in itself). */
static dart_ret_t group_members(const char* call, dart_domain_locality_t* domain_in,
                                dart_domain_locality_t** members, int n, char* tag_out) {
  /* The lowest common strict ancestor of the members. */
  dart_domain_locality_t* top = members[0]->parent;
  for (int i = 1; i < n; ++i) {
    while (!strictly_above(top, members[i])) top = top->parent;
  }
  /* Which of top's children hold members, and whether they are members. */
  const int arity = top->num_domains;
  int* holds = calloc((size_t)arity, sizeof *holds); /* 0 none, 1 below it, 2 it is one */
  /* The members' tags, copied: removing members frees their own. */
  const char** tags = malloc((size_t)n * (sizeof *tags + DART_LOCALITY_DOMAIN_TAG_MAX_SIZE));
  dart_domain_locality_t* group = new_domain();
  if (holds == NULL || tags == NULL || group == NULL) {
    free(holds);
    free(tags);
    free(group);
    return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  }
  int moved = 0; /* top's children holding members */
  for (int i = 0; i < n; ++i) {
    char* copy = (char*)(tags + n) + (size_t)i * DART_LOCALITY_DOMAIN_TAG_MAX_SIZE;
    strcpy(copy, members[i]->domain_tag);
    tags[i] = copy;
    const dart_domain_locality_t* c = members[i];
    while (c->parent != top) c = c->parent;
    for (int k = 0; k < arity; ++k) {
      if (top->children[k] == c) {
        if (holds[k] == 0) ++moved;
        holds[k] = c == members[i] ? 2 : (holds[k] == 2 ? 2 : 1);
      }
    }
  }
  /* The group's tag and the longest tag it will hold, before any change. */
  int next = 0;
  size_t rest = 0;
  for (int k = 0; k < arity; ++k) {
    int last = last_component(top->children[k]->domain_tag);
    if (last >= next) next = last + 1;
    size_t below = longest_tag(top->children[k]) - strlen(top->children[k]->domain_tag);
    if (holds[k] != 0 && below > rest) rest = below;
  }
  char group_tag[DART_LOCALITY_DOMAIN_TAG_MAX_SIZE], last_child[DART_LOCALITY_DOMAIN_TAG_MAX_SIZE];
  dart_ret_t ret = DART_OK;
  if (!child_tag(group_tag, top->domain_tag, next) ||
      !child_tag(last_child, group_tag, moved - 1) ||
      strlen(last_child) + rest >= (size_t)DART_LOCALITY_DOMAIN_TAG_MAX_SIZE) {
    ret =
        DART_LOG_ERROR_RET(DART_ERR_INVAL, call, "tags of a group below '%s' would exceed %d bytes",
                           top->domain_tag, DART_LOCALITY_DOMAIN_TAG_MAX_SIZE - 1);
  }
  group->scope = DART_LOCALITY_SCOPE_GROUP;
  group->team = top->team;
  group->global_index = -1;
  if (ret == DART_OK) {
    group->children = calloc((size_t)moved, sizeof *group->children);
    if (group->children == NULL) ret = DART_ERR_NOMEM;
  }
  /* Copies of top's children that hold deeper members, cut down to them. */
  dart_domain_locality_t** parts = calloc((size_t)arity, sizeof *parts);
  if (ret == DART_OK && parts == NULL) ret = DART_ERR_NOMEM;
  for (int k = 0; k < arity && ret == DART_OK; ++k) {
    if (holds[k] != 1) continue;
    parts[k] = copy_domain(top->children[k], NULL);
    if (parts[k] == NULL)
      ret = DART_ERR_NOMEM;
    else
      keep_selected(parts[k], n, tags);
  }
  if (ret == DART_OK) ret = insert_child(call, top, group, -1); /* cannot fail: checked */
  if (ret != DART_OK) {
    for (int k = 0; parts != NULL && k < arity; ++k) free_domain(parts[k]);
    free(parts);
    free(holds);
    free(tags);
    free_domain(group);
    return ret == DART_ERR_NOMEM ? DART_LOG_ERROR_RET(ret, call, "out of memory") : ret;
  }
  /* From here on nothing fails but normalize's allocations. Members that
   * are top's children move; the others leave their originals. */
  for (int k = 0; k < arity; ++k) {
    if (holds[k] == 0) continue;
    dart_domain_locality_t* c = top->children[k];
    if (holds[k] == 2) {
      group->children[group->num_domains++] = c;
      top->children[k] = NULL;
    } else {
      remove_named(c, n, tags);
      group->children[group->num_domains++] = parts[k];
    }
  }
  int kept = 0;
  for (int k = 0; k < top->num_domains; ++k) {
    if (top->children[k] != NULL) top->children[kept++] = top->children[k];
  }
  top->num_domains = kept;
  for (int i = 0; i < group->num_domains; ++i) {
    char t[DART_LOCALITY_DOMAIN_TAG_MAX_SIZE];
    child_tag(t, group->domain_tag, i);
    retag(group->children[i], t);
  }
  ret = normalize(domain_in);
  strcpy(tag_out, group->domain_tag);
  free(parts);
  free(holds);
  free(tags);
  if (ret == DART_ERR_NOMEM) return DART_LOG_ERROR_RET(ret, call, "out of memory");
  return ret;
}

dart_ret_t dart_domain_group(dart_domain_locality_t* domain_in, int num_group_subdomains,
                             const char** group_subdomain_tags, char* group_domain_tag_out) {
  static const char* call = "dart_domain_group";
  dart_ret_t ret = check_mutable(call, domain_in);
  if (ret == DART_OK) {
    ret = check_tags(call, domain_in, num_group_subdomains, group_subdomain_tags, true);
  }
  if (ret != DART_OK) return ret;
  DART_CHECK_ARG(call, group_domain_tag_out != NULL, "group_domain_tag_out is NULL");
  /* The members, repeated tags once; none may lie inside another. */
  dart_domain_locality_t** members = malloc((size_t)num_group_subdomains * sizeof *members);
  if (members == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  int n = 0;
  for (int i = 0; i < num_group_subdomains; ++i) {
    dart_domain_locality_t* m = find_below(domain_in, group_subdomain_tags[i]);
    bool repeated = false;
    for (int j = 0; j < n && !repeated; ++j) repeated = members[j] == m;
    if (!repeated) members[n++] = m;
  }
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i != j && strictly_above(members[i], members[j])) {
        const char* outer = members[i]->domain_tag;
        const char* inner = members[j]->domain_tag;
        free(members);
        return DART_LOG_ERROR_RET(DART_ERR_INVAL, call, "grouped domain '%s' lies inside '%s'",
                                  inner, outer);
      }
    }
  }
  ret = n > 0 ? group_members(call, domain_in, members, n, group_domain_tag_out) : DART_ERR_INVAL;
  free(members);
  return ret;
}

dart_ret_t dart_domain_split_scope(const dart_domain_locality_t* domain_in,
                                   dart_locality_scope_t scope, int num_parts,
                                   dart_domain_locality_t* split_domain_out) {
  static const char* call = "dart_domain_split_scope";
  DART_CHECK_ARG(call, domain_in != NULL, "domain_in is NULL");
  DART_CHECK_ARG(call, split_domain_out != NULL, "split_domain_out is NULL");
  DART_CHECK_ARG(call, num_parts >= 1, "%d parts", num_parts);
  dart_domain_locality_t* work = copy_domain(domain_in, NULL);
  if (work == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  int count = 0;
  char** tags = NULL;
  dart_ret_t ret = dart_domain_scope_tags(work, scope, &count, &tags);
  if (ret == DART_OK && count == 1 && strcmp(tags[0], work->domain_tag) == 0) {
    /* domain_in itself is of that scope: one part, nothing to group. */
  } else if (ret == DART_OK) {
    const int parts = num_parts < count ? num_parts : count;
    for (int g = 0; g < parts && ret == DART_OK; ++g) {
      const int first = (int)((int64_t)g * count / parts);
      const int last = (int)((int64_t)(g + 1) * count / parts);
      char group_tag[DART_LOCALITY_DOMAIN_TAG_MAX_SIZE];
      ret = dart_domain_group(work, last - first, (const char**)tags + first, group_tag);
    }
  }
  for (int i = 0; i < count; ++i) free(tags[i]);
  free(tags);
  if (ret != DART_OK) {
    free_domain(work);
    return ret;
  }
  *split_domain_out = *work;
  split_domain_out->parent = NULL;
  for (int i = 0; i < split_domain_out->num_domains; ++i) {
    split_domain_out->children[i]->parent = split_domain_out;
  }
  free(work);
  return DART_OK;
}

dart_ret_t dart_unit_locality(dart_team_t teamid, dart_team_unit_t unit,
                              dart_unit_locality_t** loc) {
  static const char* call = "dart_unit_locality";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, loc != NULL, "loc is NULL");
  TREE_OR_RETURN(tree, call, teamid);
  DART_CHECK_ARG(call, unit.id >= 0 && unit.id < tree->size, "unit %d is not in team %d (size %d)",
                 (int)unit.id, (int)teamid, tree->size);
  *loc = &tree->units[unit.id];
  return DART_OK;
}

/* ---- our placement queries --------------------------------------------- */

dart_ret_t dart_unit_placement(dart_team_t teamid, dart_team_unit_t unit,
                               dart_unit_placement_t* placement) {
  static const char* call = "dart_unit_placement";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, placement != NULL, "placement is NULL");
  const dart_team_data_t* team = dart__team_checked(call, teamid);
  if (team == NULL) return DART_ERR_INVAL;
  DART_CHECK_ARG(call, unit.id >= 0 && unit.id < team->size, "unit %d is not in team %d (size %d)",
                 (int)unit.id, (int)teamid, team->size);
  if (records == NULL) {
    return DART_LOG_ERROR_RET(DART_ERR_NOTINIT, call, "unit locality is not set up");
  }
  *placement = records[team->l2g[unit.id]];
  placement->team_unit = unit;
  return DART_OK;
}

dart_ret_t dart_domain_scope_count(dart_team_t teamid, dart_locality_scope_t scope, size_t* count) {
  static const char* call = "dart_domain_scope_count";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, count != NULL, "count is NULL");
  TREE_OR_RETURN(tree, call, teamid);
  const int level = scope_level(scope);
  *count = level < 0 ? 0 : (size_t)tree->level_count[level];
  return DART_OK;
}

static int compare_team_unit(const void* a, const void* b) {
  int x = ((const dart_team_unit_t*)a)->id, y = ((const dart_team_unit_t*)b)->id;
  return (x > y) - (x < y);
}

dart_ret_t dart_domain_units(dart_team_t teamid, const char* tag, size_t capacity,
                             dart_team_unit_t* units) {
  static const char* call = "dart_domain_units";
  DART_CHECK_INIT(call);
  TREE_OR_RETURN(tree, call, teamid);
  dart_domain_locality_t* d = NULL;
  dart_ret_t ret = find_in_tree(call, tree, tag, &d);
  if (ret != DART_OK) return ret;
  const size_t k = (size_t)d->num_units;
  DART_CHECK_ARG(call, capacity >= k, "room for %zu units, domain '%s' has %zu", capacity, tag, k);
  DART_CHECK_ARG(call, units != NULL || k == 0, "units is NULL");
  for (size_t i = 0; i < k; ++i) units[i] = DART_TEAM_UNIT_ID(tree->team_unit[d->unit_ids[i].id]);
  if (k > 0) qsort(units, k, sizeof *units, compare_team_unit);
  return DART_OK;
}

dart_ret_t dart_team_locality_split(dart_team_t teamid, dart_locality_scope_t scope,
                                    size_t num_parts, dart_team_t* newteam) {
  static const char* call = "dart_team_locality_split";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, newteam != NULL, "newteam is NULL");
  const int level = scope_level(scope);
  DART_CHECK_ARG(call, level >= 0, "scope %d is not a level of team trees", (int)scope);
  DART_CHECK_ARG(call, num_parts >= 1, "num_parts is 0");
  TREE_OR_RETURN(tree, call, teamid);
  const dart_team_data_t* team = dart__team(teamid);
  /* My domain at scope: the ancestor of my leaf at that level. */
  const dart_domain_locality_t* mine = tree->leaf[team->myid];
  while (mine->level > level) mine = mine->parent;
  const uint64_t domains = (uint64_t)tree->level_count[level];
  const uint64_t parts = num_parts < domains ? (uint64_t)num_parts : domains;
  /* Domain d goes to part floor(d * parts / domains): contiguous runs whose
   * numbers of domains differ by at most one. */
  int color = (int)((uint64_t)mine->global_index * parts / domains);
  return dart_team_split(teamid, color, team->myid, newteam);
}
