/* Unit locality: where every unit runs, and the domain hierarchy of a team.
 *
 * dart_init records for every unit its host, its node (real or emulated, see
 * DART_VIRTUAL_NODE_SIZE) and, through hwloc, the NUMA domain, socket and core
 * it was running on at start-up. The hardware indices are logical indices in
 * the unit's real node as hwloc sees it (inside a container: the part of the
 * machine the container may use). When hwloc cannot tell (topology fails to
 * load, or DART_TEST_HWLOC_FAIL=1), numa, socket, core and the counts are -1
 * ("unknown"); host and node are always known.
 *
 * A team's units form a tree of domains, outermost first:
 *
 *   scope   tag        index of the domain                 children
 *   GLOBAL  "."        0                                   the team's nodes
 *   NODE    ".n"       DART node id                        NUMA domains of the node
 *   NUMA    ".n.m"     NUMA index on the real node, or -1  cores of the NUMA domain
 *   CORE    ".n.m.c"   core index on the real node, or -1  units running on the core
 *   UNIT    ".n.m.c.u" team-relative unit id               none
 *
 * Component k of a tag is the position of the domain among its parent's
 * children, which are ordered by their index (and units by id), so the tree
 * and its tags are the same on every unit. Unknown (-1) NUMA domains and cores
 * form one domain per parent. Every level partitions the team's units: each
 * unit is in exactly one domain per scope.
 *
 * All queries are local and need no communication: the first query on a team
 * builds its tree from the records gathered at start-up, O(n log n) for n
 * units in the team; later queries of the team cost O(tree depth) plus the
 * size of what they return. Queries are thread-safe. */
#ifndef DART__DART_LOCALITY_H_
#define DART__DART_LOCALITY_H_

#include <dart/dart_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of a host name, including the terminating NUL (longer names are
 * truncated). */
#define DART_LOCALITY_HOST_MAX_SIZE 128

/* Bytes of a domain tag, including the terminating NUL. */
#define DART_LOCALITY_TAG_MAX_SIZE 64

/* Levels of the domain hierarchy, outermost first. */
typedef enum {
  DART_LOCALITY_SCOPE_GLOBAL = 0, /* the whole team */
  DART_LOCALITY_SCOPE_NODE = 1,   /* a (real or emulated) node */
  DART_LOCALITY_SCOPE_NUMA = 2,   /* a NUMA domain of a node */
  DART_LOCALITY_SCOPE_CORE = 3,   /* a core of a NUMA domain */
  DART_LOCALITY_SCOPE_UNIT = 4    /* one unit */
} dart_locality_scope_t;

/* Where one unit runs. -1 means unknown (hwloc gave no answer). */
typedef struct {
  dart_global_unit_t unit;                /* global id */
  dart_team_unit_t team_unit;             /* id in the queried team */
  char host[DART_LOCALITY_HOST_MAX_SIZE]; /* host name */
  int node;                               /* DART node (real or emulated), 0.. */
  int real_node;                          /* real node (shared-memory domain), 0.. */
  int numa;                               /* NUMA domain on the real node */
  int socket;                             /* socket (package) on the real node */
  int core;                               /* core on the real node, in [0, node_cores) */
  int cpu;                                /* OS index of the hardware thread (as sched_getcpu) */
  int num_cores;                          /* cores the unit's binding allows */
  int num_numa;                           /* NUMA domains the unit's binding allows */
  int node_cores;                         /* cores of the real node (usable ones) */
} dart_unit_locality_t;

/* One domain of a team's hierarchy. */
typedef struct {
  char tag[DART_LOCALITY_TAG_MAX_SIZE]; /* ".0.1" */
  dart_locality_scope_t scope;
  int level;                              /* depth: 0 for the root */
  int relative_index;                     /* position among its parent's children */
  int index;                              /* see the table above; -1 unknown */
  char host[DART_LOCALITY_HOST_MAX_SIZE]; /* host of node scope and below, "" for the root */
  size_t num_units;                       /* team units inside */
  size_t num_domains;                     /* children; child i has tag "<tag>.i" (".i" for
                                             the root) */
} dart_domain_locality_t;

/* Locality of team unit `unit` of `team`. Local, O(1). */
dart_ret_t dart_unit_locality(dart_team_t team, dart_team_unit_t unit, dart_unit_locality_t* loc);

/* The domain named by `tag` in the team's hierarchy. DART_ERR_INVAL for a
 * malformed tag, DART_ERR_NOTFOUND for a well-formed tag naming no domain.
 * Local, O(tree depth) (first query of the team: builds the tree). */
dart_ret_t dart_domain_team_locality(dart_team_t team, const char* tag,
                                     dart_domain_locality_t* domain);

/* Number of domains of the team at `scope`. Local, O(1). */
dart_ret_t dart_domain_scope_count(dart_team_t team, dart_locality_scope_t scope, size_t* count);

/* The i-th domain of the team at `scope`, in tag order (i < the count of
 * dart_domain_scope_count). Local, O(tree depth). */
dart_ret_t dart_domain_scope_locality(dart_team_t team, dart_locality_scope_t scope, size_t i,
                                      dart_domain_locality_t* domain);

/* Writes the team-relative ids of the units in domain `tag`, ascending, to
 * units (room for `capacity` ids; DART_ERR_INVAL if fewer than the domain's
 * num_units). Local, O(k log k) for k units in the domain. */
dart_ret_t dart_domain_units(dart_team_t team, const char* tag, size_t capacity,
                             dart_team_unit_t* units);

/* Splits the team by locality: the team's domains at `scope` (in tag order)
 * are dealt in contiguous runs to min(num_parts, domains) parts whose numbers
 * of domains differ by at most one; the units of one part form a sub-team
 * (team order kept), and *newteam is the caller's. num_parts must be >= 1.
 * Collective over the team (like dart_team_split). */
dart_ret_t dart_team_locality_split(dart_team_t team, dart_locality_scope_t scope, size_t num_parts,
                                    dart_team_t* newteam);

#ifdef __cplusplus
}
#endif

#endif /* DART__DART_LOCALITY_H_ */
