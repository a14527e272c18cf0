/* Units, groups and teams.
 *
 * A group is a sorted set of global unit ids (local object, no communication).
 * A team is an MPI communicator plus the DART state built on it (memory
 * segments, locks); creating and destroying teams is collective over the
 * parent team. Unit order inside a team follows the global unit ids. */
#ifndef DART__DART_TEAM_GROUP_H_
#define DART__DART_TEAM_GROUP_H_

#include <dart/dart_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- units -------------------------------------------------------------- */

/* Global id of the calling unit. Local. */
dart_ret_t dart_myid(dart_global_unit_t* myid);

/* Number of units in DART_TEAM_ALL. Local. */
dart_ret_t dart_size(size_t* size);

/* ---- groups (all local) ------------------------------------------------- */

/* Creates an empty group. */
dart_ret_t dart_group_create(dart_group_t* group);

/* Frees a group and sets *group to NULL. */
dart_ret_t dart_group_destroy(dart_group_t* group);

/* Copies a group. */
dart_ret_t dart_group_clone(const dart_group_t group, dart_group_t* gout);

/* gout = g1 ∪ g2 (a new group). */
dart_ret_t dart_group_union(const dart_group_t g1, const dart_group_t g2, dart_group_t* gout);

/* gout = g1 ∩ g2 (a new group). */
dart_ret_t dart_group_intersect(const dart_group_t g1, const dart_group_t g2, dart_group_t* gout);

/* Adds a unit (no-op if already a member). */
dart_ret_t dart_group_addmember(dart_group_t group, dart_global_unit_t unitid);

/* Removes a unit (DART_ERR_NOTFOUND if not a member). */
dart_ret_t dart_group_delmember(dart_group_t group, dart_global_unit_t unitid);

/* *ismember = 1 if unitid is in the group, else 0. */
dart_ret_t dart_group_ismember(const dart_group_t group, dart_global_unit_t unitid,
                               int32_t* ismember);

/* Number of members. */
dart_ret_t dart_group_size(const dart_group_t group, size_t* size);

/* Writes the members in ascending order to unitids (room for size entries). */
dart_ret_t dart_group_getmembers(const dart_group_t group, dart_global_unit_t* unitids);

/* Splits a group into at most n groups of consecutive members whose sizes
 * differ by at most one. gout must hold n group handles; *nout receives the
 * number of (non-empty) groups made; unused entries are set to NULL. */
dart_ret_t dart_group_split(const dart_group_t group, size_t n, size_t* nout, dart_group_t* gout);

/* ---- teams -------------------------------------------------------------- */

/* Group of the team's members (a new group). Local. */
dart_ret_t dart_team_get_group(dart_team_t teamid, dart_group_t* group);

/* Creates a team of the group's members, which must all belong to teamid.
 * Collective over teamid: every member of teamid calls it; units outside the
 * group receive DART_TEAM_NULL. Team ids are never reused while the team
 * lives. */
dart_ret_t dart_team_create(dart_team_t teamid, const dart_group_t group, dart_team_t* newteam);

/* Splits teamid into sub-teams by color (units with equal color form a team,
 * ordered by key, then by unit id). A negative color yields DART_TEAM_NULL.
 * Collective over teamid. */
dart_ret_t dart_team_split(dart_team_t teamid, int color, int key, dart_team_t* newteam);

/* Splits teamid into one team per (real or emulated, see
 * DART_VIRTUAL_NODE_SIZE) node. Collective over teamid. */
dart_ret_t dart_team_split_node(dart_team_t teamid, dart_team_t* newteam);

/* Duplicates a team. Collective over teamid. */
dart_ret_t dart_team_clone(dart_team_t teamid, dart_team_t* newteam);

/* Frees the team, its remaining memory segments and locks, and sets *teamid
 * to DART_TEAM_NULL. DART_TEAM_ALL cannot be destroyed. Collective over the
 * team. */
dart_ret_t dart_team_destroy(dart_team_t* teamid);

/* Team that teamid was created from (DART_TEAM_NULL for DART_TEAM_ALL). Local. */
dart_ret_t dart_team_get_parent(dart_team_t teamid, dart_team_t* parent);

/* Calling unit's id in the team. Local. */
dart_ret_t dart_team_myid(dart_team_t teamid, dart_team_unit_t* myid);

/* Number of units in the team. Local. */
dart_ret_t dart_team_size(dart_team_t teamid, size_t* size);

/* Team-relative id → global id. Local. */
dart_ret_t dart_team_unit_l2g(dart_team_t teamid, dart_team_unit_t localid,
                              dart_global_unit_t* globalid);

/* Global id → team-relative id (DART_UNDEFINED_UNIT_ID if not a member). Local. */
dart_ret_t dart_team_unit_g2l(dart_team_t teamid, dart_global_unit_t globalid,
                              dart_team_unit_t* localid);

#ifdef __cplusplus
}
#endif

#endif /* DART__DART_TEAM_GROUP_H_ */
