/* Unit locality: where every unit runs, and the domain hierarchy of a team
 * (DASH's dart_locality.h calls and types, plus our placement queries).
 *
 * dart_init records for every unit its host, its node (real or emulated, see
 * DART_VIRTUAL_NODE_SIZE) and, through hwloc, the NUMA domain, socket, core,
 * hardware thread, caches and threads per core it had at start-up
 * (dart_hwinfo_t in dart_types.h). Hardware indices are logical indices on
 * the unit's real node as hwloc sees it (inside a container: the part of
 * the machine the container may use). When hwloc cannot tell (topology
 * fails to load, or DART_TEST_HWLOC_FAIL=1) they are -1 ("unknown"); host
 * and node are always known.
 *
 * A team's units form a tree of domains (dart_domain_locality_t), owned by
 * DART, outermost first:
 *
 *   scope   level  tag            one domain per                  children
 *   GLOBAL  0      "."            team                            its nodes
 *   NODE    1      ".n"           (real or emulated) node         one module
 *   MODULE  2      ".n.0"         node (DASH's module level)      its NUMA domains
 *   NUMA    3      ".n.0.m"       NUMA domain (unknown: one)      its cores
 *   CORE    4      ".n.0.m.c"     core (unknown: one per NUMA)    units on the core
 *   UNIT    5      ".n.0.m.c.u"   unit                            none
 *
 * Component k of a tag is the domain's position among its parent's children;
 * nodes are ordered by node id, NUMA domains and cores by hardware index,
 * units by team unit id, so the tree and its tags are the same on every unit.
 * Every level partitions the team's units. (DASH puts UNIT right below NUMA;
 * we keep a CORE level between them, so scope values do not grow with depth
 * below NUMA: compare levels, not scopes.)
 *
 * num_cores of a domain: of a node and above, the usable cores of its nodes
 * (where hwloc failed: its occupied cores); of a module or NUMA domain, its
 * cores holding team units; of a core 1; of a unit, the cores its binding
 * allows (-1 unknown).
 *
 * Ownership: dart_domain_team_locality and dart_unit_locality return
 * pointers into DART's records of the team, valid while the team lives
 * (until dart_team_locality_finalize); never pass them to
 * dart_domain_destroy, select, exclude, group or assign (those return
 * DART_ERR_INVAL for them). Copies from dart_domain_create / dart_domain_clone
 * belong to the caller, who may change them and frees them with
 * dart_domain_destroy.
 *
 * Costs: every call is local (no communication) except
 * dart_team_locality_split. The first query of a team builds its tree from
 * the records gathered at start-up, O(n log n) for n units; later queries
 * cost O(tree depth) plus the size of what they return. Queries of DART's
 * trees are thread-safe; changing one copy from two threads is not. */
#ifndef DART__DART_LOCALITY_H_
#define DART__DART_LOCALITY_H_

#include <dart/dart_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- DASH's calls ------------------------------------------------------ */

/* Builds the team's domain tree now (otherwise the first query does).
 * Local. */
dart_ret_t dart_team_locality_init(dart_team_t team);

/* Drops the team's tree and unit records (pointers from earlier queries
 * become invalid; the next query builds them again). Local. */
dart_ret_t dart_team_locality_finalize(dart_team_t team);

/* *domain_out = the domain named `domain_tag` in the team's tree (owned by
 * DART). DART_ERR_INVAL for a malformed tag or NULL argument,
 * DART_ERR_NOTFOUND for a well-formed tag naming no domain. Local,
 * O(depth). */
dart_ret_t dart_domain_team_locality(dart_team_t team, const char* domain_tag,
                                     dart_domain_locality_t** domain_out);

/* *domain_out = a new empty domain (tag ".", scope UNDEFINED, no units,
 * no children), the caller's. Local. */
dart_ret_t dart_domain_create(dart_domain_locality_t** domain_out);

/* *domain_out = a deep copy of domain_in and everything below it, the
 * caller's; its parent is NULL (it is the root of the copy), its tags stay.
 * Local, O(size of the subtree). */
dart_ret_t dart_domain_clone(const dart_domain_locality_t* domain_in,
                             dart_domain_locality_t** domain_out);

/* Frees a domain from dart_domain_create or dart_domain_clone and
 * everything below it. DART_ERR_INVAL for NULL, a domain of DART's trees or
 * a domain that is not a root of its copy. Local. */
dart_ret_t dart_domain_destroy(dart_domain_locality_t* domain);

/* Overwrites the caller's domain_lhs (from create or clone) with a deep copy
 * of domain_rhs (its old contents are freed). Local. */
dart_ret_t dart_domain_assign(dart_domain_locality_t* domain_lhs,
                              const dart_domain_locality_t* domain_rhs);

/* *subdomain_out = the domain named `domain_tag` in or below domain_in (a
 * pointer into the same hierarchy). DART_ERR_NOTFOUND if there is none.
 * Local, O(depth x children per level). */
dart_ret_t dart_domain_find(const dart_domain_locality_t* domain_in, const char* domain_tag,
                            dart_domain_locality_t** subdomain_out);

/* Keeps, below domain_in (the caller's copy), only the named domains (with
 * everything below them) and their ancestors; the units of every kept
 * domain are updated. Tags stay; relative indices follow the new order.
 * DART_ERR_NOTFOUND if a tag names no domain inside domain_in. Local. */
dart_ret_t dart_domain_select(dart_domain_locality_t* domain_in, int num_subdomain_tags,
                              const char** subdomain_tags);

/* Removes the named domains (and everything below them) from domain_in
 * (the caller's copy); ancestors left without units go too, domain_in
 * stays. Tags stay; relative indices and units follow. DART_ERR_NOTFOUND
 * if a tag names no domain strictly inside domain_in. Local. */
dart_ret_t dart_domain_exclude(dart_domain_locality_t* domain_in, int num_subdomain_tags,
                               const char** subdomain_tags);

/* Inserts a deep copy of `subdomain` (its units must not be in domain's
 * hierarchy yet) as child subdomain_rel_id of `domain` (-1: last) in the
 * caller's copy; the copy is re-tagged below domain, its units are added
 * to domain and its ancestors. Local. */
dart_ret_t dart_domain_add_subdomain(dart_domain_locality_t* domain,
                                     dart_domain_locality_t* subdomain, int subdomain_rel_id);

/* Moves `domain` (of the caller's copy) to be child new_domain_rel_id (-1:
 * last) of new_parent_domain in the same hierarchy; it is re-tagged, and
 * the units of the old and new ancestors follow. DART_ERR_INVAL if the new
 * parent lies inside domain. Local. */
dart_ret_t dart_domain_move_subdomain(dart_domain_locality_t* domain,
                                      dart_domain_locality_t* new_parent_domain,
                                      int new_domain_rel_id);

/* Writes to *split_domain_out (overwritten, not freed first: pass an empty
 * domain) a copy of domain_in whose domains at `scope` are grouped (as by
 * dart_domain_group) into min(num_parts, domains) groups of contiguous
 * domains (in tag order), whose numbers of domains differ by at most one.
 * DART_ERR_NOTFOUND if domain_in has no domain at scope. Local. */
dart_ret_t dart_domain_split_scope(const dart_domain_locality_t* domain_in,
                                   dart_locality_scope_t scope, int num_parts,
                                   dart_domain_locality_t* split_domain_out);

/* The tags of the domains at `scope` in or below domain_in, in tag order:
 * *domain_tags_out is a malloc'd array of *num_domains_out malloc'd
 * strings (the caller frees each and the array). DART_ERR_NOTFOUND (and
 * 0, NULL) if there are none. Local. */
dart_ret_t dart_domain_scope_tags(const dart_domain_locality_t* domain_in,
                                  dart_locality_scope_t scope, int* num_domains_out,
                                  char*** domain_tags_out);

/* The domains at `scope` in or below domain_in, in tag order:
 * *domains_out is a malloc'd array of pointers into the hierarchy (the
 * caller frees the array only). DART_ERR_NOTFOUND (and 0, NULL) if there
 * are none. Local. */
dart_ret_t dart_domain_scope_domains(const dart_domain_locality_t* domain_in,
                                     dart_locality_scope_t scope, int* num_domains_out,
                                     dart_domain_locality_t*** domains_out);

/* Groups the named domains (inside domain_in, the caller's copy; repeated
 * tags count once; none may lie inside another) under a new GROUP domain,
 * appended as the last child of their lowest common strict ancestor. Named
 * domains that are children of that ancestor move into the group; deeper
 * ones move into the group inside copies of the ancestor's children that
 * held them (cut down to them), and leave the originals (emptied ones go).
 * Domains moved into the group are re-tagged below it; other tags stay.
 * The group's tag is written to group_domain_tag_out (room for
 * DART_LOCALITY_DOMAIN_TAG_MAX_SIZE bytes). Local. */
dart_ret_t dart_domain_group(dart_domain_locality_t* domain_in, int num_group_subdomains,
                             const char** group_subdomain_tags, char* group_domain_tag_out);

/* *loc = where team unit `unit` runs (owned by DART, valid while the team
 * lives): its hwinfo and the tag of its domain in the team's tree, the CORE
 * domain it runs in (as DASH's; the UNIT domain holding only this unit is a
 * child of it). Local,
 * O(1) after the team's first query. */
dart_ret_t dart_unit_locality(dart_team_t team, dart_team_unit_t unit, dart_unit_locality_t** loc);

/* ---- our placement queries (not in DASH) ------------------------------- */

/* Where one unit runs, by node. -1 means unknown (hwloc gave no answer). */
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
} dart_unit_placement_t;

/* *placement = where team unit `unit` of `team` runs (a copy). Local, O(1). */
dart_ret_t dart_unit_placement(dart_team_t team, dart_team_unit_t unit,
                               dart_unit_placement_t* placement);

/* Number of domains of the team's tree at `scope` (0 for a scope the tree
 * does not use, e.g. GROUP). Local, O(1). */
dart_ret_t dart_domain_scope_count(dart_team_t team, dart_locality_scope_t scope, size_t* count);

/* Writes the team-relative ids of the units in domain `tag` of the team's
 * tree, ascending, to units (room for `capacity` ids; DART_ERR_INVAL if
 * fewer than the domain's num_units). Local, O(k log k) for k units. */
dart_ret_t dart_domain_units(dart_team_t team, const char* tag, size_t capacity,
                             dart_team_unit_t* units);

/* Splits the team by locality: the team's domains at `scope` (in tag order)
 * are dealt in contiguous runs to min(num_parts, domains) parts whose
 * numbers of domains differ by at most one; the units of one part form a
 * sub-team (team order kept), and *newteam is the caller's. num_parts must
 * be >= 1; GROUP and the scopes the tree does not use are DART_ERR_INVAL.
 * Collective over the team (like dart_team_split). */
dart_ret_t dart_team_locality_split(dart_team_t team, dart_locality_scope_t scope, size_t num_parts,
                                    dart_team_t* newteam);

#ifdef __cplusplus
}
#endif

#endif /* DART__DART_LOCALITY_H_ */
