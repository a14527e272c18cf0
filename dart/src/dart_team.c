/* Teams: creation from groups, splitting, destruction, unit id translation.
 *
 * Team ids: a new team takes the lowest id that no unit of the parent team
 * uses (one 4 KiB bitwise-or allreduce over the parent), so an id is never
 * given to a second team while the first one (and with it its memory) is
 * alive on any unit that could see both. */
#include <dart/dart_mpi.h>
#include <stdlib.h>
#include <string.h>

#include "dart_internal.h"

#define ID_WORDS (DART_MAX_TEAMS / 64)

dart_team_data_t* dart__team_checked(const char* call, dart_team_t teamid) {
  dart_team_data_t* team = dart__team(teamid);
  if (team == NULL) dart__log(DART_LOG_ERROR, call, "unknown team %d", (int)teamid);
  return team;
}

/* What a unit brings to the team set-up's agreement (the worst wins: MPI_MAX). */
enum { SETUP_OK = 0, SETUP_NOMEM = 1, SETUP_MPI_FAILED = 2 };
/* A node rank no unit has: its node_comm queries failed. */
#define NODE_RANK_FAILED (-2)

#define TEAM_OR_RETURN(var, call, teamid)                       \
  dart_team_data_t* var = dart__team_checked((call), (teamid)); \
  if (var == NULL) return DART_ERR_INVAL

static void free_team_data(dart_team_data_t* team) {
  free(team->l2g);
  free(team->g2l);
  free(team->node_rank);
  free(team->reachable);
  free(team->segs);
  free(team);
}

dart_ret_t dart__team_setup(const char* call, MPI_Comm comm, dart_team_t id, dart_team_t parent,
                            dart_team_data_t** out) {
  dart_team_data_t* team = calloc(1, sizeof *team);
  if (team == NULL) {
    /* Tell the others (see the agreement below) before giving up. */
    int agreed[2] = {SETUP_NOMEM, 0};
    const int ret = MPI_Allreduce(MPI_IN_PLACE, agreed, 2, MPI_INT, MPI_MAX, comm);
    dart__log(DART_LOG_ERROR, call, "out of memory");
    /* as below: an MPI failure first (the others may not have heard) */
    if (ret != MPI_SUCCESS) return dart__mpi_error(ret, call, "MPI_Allreduce");
    return DART_ERR_NOMEM;
  }
  team->id = id;
  team->parent = parent;
  team->serial = dart__state.next_team_serial++;
  team->comm = comm;
  team->node_comm = MPI_COMM_NULL;
  team->next_segid = 1;
  /* Local MPI failures join the agreement below like failed allocations. */
  int local_failure = SETUP_OK;
  dart_ret_t dret = dart__mpi_error(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN), call,
                                    "MPI_Comm_set_errhandler");
  if (dret == DART_OK)
    dret = dart__mpi_error(MPI_Comm_rank(comm, &team->myid), call, "MPI_Comm_rank");
  if (dret == DART_OK)
    dret = dart__mpi_error(MPI_Comm_size(comm, &team->size), call, "MPI_Comm_size");
  if (dret != DART_OK) {
    local_failure = SETUP_MPI_FAILED;
    team->size = 0; /* no tables */
  }
  size_t n = (size_t)team->size;
  team->l2g = malloc(n * sizeof *team->l2g);
  team->g2l = malloc((size_t)dart__state.size * sizeof *team->g2l);
  team->node_rank = malloc(n * sizeof *team->node_rank);
  team->reachable = malloc(n * sizeof *team->reachable);
  int* node_ranks = malloc(n * sizeof *node_ranks);
  /* A unit whose allocations failed must not leave the others waiting in the
   * allgathers below: the units first agree (constant memory) on whether all
   * succeeded, and on the next segment generation of this team id. */
  if (local_failure == SETUP_OK && !(team->l2g && team->g2l && team->node_rank && team->reachable &&
                                     node_ranks && !dart__test_fail_now()))
    local_failure = SETUP_NOMEM;
  int agreed[2] = {local_failure, (int)dart__state.team_generation[id < 0 ? 0 : id]};
  int ret = MPI_Allreduce(MPI_IN_PLACE, agreed, 2, MPI_INT, MPI_MAX, comm);
  if (ret != MPI_SUCCESS || agreed[0] != SETUP_OK) {
    free(node_ranks);
    free_team_data(team);
    if (ret != MPI_SUCCESS) return dart__mpi_error(ret, call, "MPI_Allreduce");
    /* The worst failure of any unit decides; this unit's own is logged (MPI's above). */
    const bool mpi = agreed[0] == SETUP_MPI_FAILED;
    if (local_failure == SETUP_NOMEM) dart__log(DART_LOG_ERROR, call, "out of memory");
    if (local_failure == agreed[0]) return mpi ? DART_ERR_OTHER : DART_ERR_NOMEM;
    return DART_LOG_ERROR_RET(mpi ? DART_ERR_OTHER : DART_ERR_NOMEM, call,
                              "%s on another unit of the team",
                              mpi ? "MPI failed" : "out of memory");
  }
  team->next_generation = (uint16_t)agreed[1];
  ret = MPI_Allgather(&dart__state.myid, 1, MPI_INT, team->l2g, 1, MPI_INT, comm);
  if (ret == MPI_SUCCESS) {
    ret = MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &team->node_comm);
  }
  int node_rank = -1, node_size = 0;
  if (ret == MPI_SUCCESS) {
    /* A unit whose node_comm queries failed says so in the allgather (NODE_RANK_FAILED), so
     * that every unit gives up together. */
    if (dart__mpi_error(MPI_Comm_rank(team->node_comm, &node_rank), call, "MPI_Comm_rank") !=
            DART_OK ||
        dart__mpi_error(MPI_Comm_size(team->node_comm, &node_size), call, "MPI_Comm_size") !=
            DART_OK)
      node_rank = NODE_RANK_FAILED;
    ret = MPI_Allgather(&node_rank, 1, MPI_INT, node_ranks, 1, MPI_INT, comm);
  }
  bool node_failed = false;
  for (int unit = 0; unit < team->size && ret == MPI_SUCCESS; ++unit)
    node_failed = node_failed || node_ranks[unit] == NODE_RANK_FAILED;
  if (ret != MPI_SUCCESS || node_failed) {
    /* error path: the set-up error below is returned */
    if (team->node_comm != MPI_COMM_NULL) (void)MPI_Comm_free(&team->node_comm);
    free(node_ranks);
    free_team_data(team);
    if (node_failed)
      return DART_LOG_ERROR_RET(
          DART_ERR_OTHER, call, "MPI failed%s",
          node_rank == NODE_RANK_FAILED ? "" : " on another unit of the team");
    return dart__mpi_error(ret, call, "team set-up (MPI_Allgather / MPI_Comm_split_type)");
  }
  ++dart__state.live_comms; /* node_comm; comm was counted by its creator */
  for (int g = 0; g < dart__state.size; ++g) team->g2l[g] = -1;
  const int me = dart__state.myid;
  for (int unit = 0; unit < team->size; ++unit) {
    int g = team->l2g[unit];
    team->g2l[g] = unit;
    bool same_real_node = dart__state.real_node[g] == dart__state.real_node[me];
    team->node_rank[unit] = same_real_node ? node_ranks[unit] : -1;
    team->reachable[unit] = same_real_node && dart__state.config.shared_windows &&
                            dart__state.node[g] == dart__state.node[me];
  }
  team->reachable[team->myid] = true; /* own memory is always load/store */
  team->single_node = node_size == team->size;
  /* The window pair where units span real nodes (a cluster), and on MPICH
   * also where some unit reaches another only by RMA (emulated nodes,
   * DART_SHARED_WINDOWS=0): MPICH's RMA on a shared window runs at a
   * fraction of its speed on MPI_Win_create windows, and the pair is what
   * a cluster would run. Every unit decides alike: a team of more than one
   * unit has, for every unit, some unit it cannot load/store exactly when
   * the team spans emulated nodes or the fast path is off. */
  bool rma = false;
  for (int unit = 0; unit < team->size; ++unit) rma = rma || !team->reachable[unit];
  team->window_pair =
      !team->single_node || dart__state.config.force_window_pair || (DART_MPI_IS_MPICH && rma);
  free(node_ranks);
  ret = dart__watchdog_team_setup(team);
  if (ret != MPI_SUCCESS) {
    (void)MPI_Comm_free(&team->node_comm); /* error path: the set-up error is returned */
    --dart__state.live_comms;
    free_team_data(team);
    return dart__mpi_error(ret, call, "watchdog counter window (MPI_Win_allocate)");
  }
  *out = team;
  return DART_OK;
}

dart_ret_t dart__team_teardown(const char* call, dart_team_data_t* team) {
  dart_ret_t result = DART_OK;
  /* A later team with this id continues the generations (stale pointers). */
  if (team->id >= 0) dart__state.team_generation[team->id] = team->next_generation;
  /* Every unit holds the same segments; free them in the same order. */
  for (int segid = 0; segid < team->segs_cap; ++segid) {
    if (team->segs[segid] == NULL) continue;
    if (team->id == DART_TEAM_ALL && segid == DART_SEGMENT_LOCAL) continue;
    dart_ret_t ret = dart__segment_free(call, team->segs[segid]);
    if (ret != DART_OK) result = ret;
    team->segs[segid] = NULL;
  }
  dart_ret_t ret = dart__watchdog_team_teardown(call, team);
  if (ret != DART_OK) result = ret;
  /* A failed free is reported; the team is gone for DART regardless. */
  if (team->node_comm != MPI_COMM_NULL) {
    ret = dart__mpi_error(MPI_Comm_free(&team->node_comm), call, "MPI_Comm_free");
    if (ret != DART_OK) result = ret;
    --dart__state.live_comms;
  }
  if (team->comm != MPI_COMM_NULL) {
    ret = dart__mpi_error(MPI_Comm_free(&team->comm), call, "MPI_Comm_free");
    if (ret != DART_OK) result = ret;
    --dart__state.live_comms;
  }
  free_team_data(team);
  return result;
}

int16_t dart__team_next_segid(dart_team_data_t* team) {
  const int16_t freed = team->freed_segid;
  team->freed_segid = 0;
  if (freed > 0 && (freed >= team->segs_cap || team->segs[freed] == NULL)) return freed;
  for (int tries = 0; tries < DART_MAX_SEGMENTS; ++tries) {
    int16_t id = team->next_segid;
    team->next_segid = id == DART_MAX_SEGMENTS - 1 ? 1 : (int16_t)(id + 1);
    if (id >= team->segs_cap || team->segs[id] == NULL) return id;
  }
  return -1;
}

void dart__test_set_next_segid(dart_team_t teamid, int16_t segid) {
  dart_team_data_t* team = dart__team(teamid);
  if (team != NULL && segid > 0) {
    team->next_segid = segid;
    team->freed_segid = 0;
  }
}

dart_ret_t dart__team_add_segment(dart_team_data_t* team, dart_segment_t* seg) {
  if (seg->segid >= team->segs_cap) {
    int capacity = team->segs_cap == 0 ? 16 : team->segs_cap;
    while (capacity <= seg->segid) capacity *= 2;
    if (capacity > DART_MAX_SEGMENTS) capacity = DART_MAX_SEGMENTS;
    dart_segment_t** grown = realloc(team->segs, (size_t)capacity * sizeof *grown);
    if (grown == NULL) return DART_ERR_NOMEM;
    for (int i = team->segs_cap; i < capacity; ++i) grown[i] = NULL;
    team->segs = grown;
    team->segs_cap = capacity;
  }
  team->segs[seg->segid] = seg;
  return DART_OK;
}

void dart__team_remove_segment(dart_team_data_t* team, int16_t segid) {
  if (segid >= 0 && segid < team->segs_cap) team->segs[segid] = NULL;
  if (segid > 0) team->freed_segid = segid;
}

/* Lowest team id unused on every unit of parent. Collective over parent. */
static dart_ret_t agree_on_team_id(const char* call, dart_team_data_t* parent, dart_team_t* id) {
  uint64_t used[ID_WORDS];
  memset(used, 0, sizeof used);
  for (int t = 0; t < DART_MAX_TEAMS; ++t) {
    if (dart__state.teams[t] != NULL) used[t / 64] |= (uint64_t)1 << (t % 64);
  }
  DART_MPI_COLLECTIVE(
      call, parent,
      MPI_Allreduce(MPI_IN_PLACE, used, ID_WORDS, MPI_UINT64_T, MPI_BOR, parent->comm),
      MPI_Iallreduce(MPI_IN_PLACE, used, ID_WORDS, MPI_UINT64_T, MPI_BOR, parent->comm, &req_));
  for (int word = 0; word < ID_WORDS; ++word) {
    if (used[word] == UINT64_MAX) continue;
    int bit = __builtin_ctzll(~used[word]);
    *id = (dart_team_t)(word * 64 + bit);
    return DART_OK;
  }
  return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "all %d team ids are in use", DART_MAX_TEAMS);
}

/* Makes the team for comm (MPI_COMM_NULL: the caller is not a member).
 * Collective over parent. */
static dart_ret_t register_new_team(const char* call, dart_team_data_t* parent, MPI_Comm comm,
                                    dart_team_t* newteam) {
  if (comm != MPI_COMM_NULL) ++dart__state.live_comms;
  dart_team_t id = DART_TEAM_NULL;
  dart_ret_t ret = agree_on_team_id(call, parent, &id);
  if (ret != DART_OK || comm == MPI_COMM_NULL) {
    if (comm != MPI_COMM_NULL) {
      (void)MPI_Comm_free(&comm); /* error path: the team id error is returned */
      --dart__state.live_comms;
    }
    *newteam = DART_TEAM_NULL;
    return ret;
  }
  dart_team_data_t* team = NULL;
  ret = dart__team_setup(call, comm, id, parent->id, &team);
  if (ret != DART_OK) {
    (void)MPI_Comm_free(&comm); /* error path: the set-up error is returned */
    --dart__state.live_comms;
    *newteam = DART_TEAM_NULL;
    return ret;
  }
  dart__state.teams[id] = team;
  *newteam = id;
  return DART_OK;
}

dart_ret_t dart_team_create(dart_team_t teamid, const dart_group_t group, dart_team_t* newteam) {
  static const char* call = "dart_team_create";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, newteam != NULL, "newteam is NULL");
  if (!dart__group_valid(call, group)) return DART_ERR_INVAL;
  TEAM_OR_RETURN(parent, call, teamid);
  size_t count = 0;
  const dart_unit_t* members = dart__group_members(group, &count);
  for (size_t i = 0; i < count; ++i) {
    DART_CHECK_ARG(call,
                   members[i] >= 0 && members[i] < dart__state.size && parent->g2l[members[i]] >= 0,
                   "unit %d of the group is not a member of team %d", members[i], (int)teamid);
  }
  int32_t member = 0;
  dart_group_ismember(group, DART_GLOBAL_UNIT_ID(dart__state.myid), &member);
  MPI_Comm comm = MPI_COMM_NULL;
  DART_MPI_CALL(call, dart__polled_barrier(call, parent));
  DART_MPI_CALL(call,
                MPI_Comm_split(parent->comm, member ? 0 : MPI_UNDEFINED, dart__state.myid, &comm));
  return register_new_team(call, parent, comm, newteam);
}

dart_ret_t dart_team_split(dart_team_t teamid, int color, int key, dart_team_t* newteam) {
  static const char* call = "dart_team_split";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, newteam != NULL, "newteam is NULL");
  TEAM_OR_RETURN(parent, call, teamid);
  MPI_Comm comm = MPI_COMM_NULL;
  DART_MPI_CALL(call, dart__polled_barrier(call, parent));
  DART_MPI_CALL(call, MPI_Comm_split(parent->comm, color < 0 ? MPI_UNDEFINED : color, key, &comm));
  return register_new_team(call, parent, comm, newteam);
}

dart_ret_t dart_team_split_node(dart_team_t teamid, dart_team_t* newteam) {
  static const char* call = "dart_team_split_node";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, newteam != NULL, "newteam is NULL");
  TEAM_OR_RETURN(parent, call, teamid);
  MPI_Comm comm = MPI_COMM_NULL;
  DART_MPI_CALL(call, dart__polled_barrier(call, parent));
  DART_MPI_CALL(
      call, MPI_Comm_split(parent->comm, dart__state.node[dart__state.myid], parent->myid, &comm));
  return register_new_team(call, parent, comm, newteam);
}

dart_ret_t dart_team_clone(dart_team_t teamid, dart_team_t* newteam) {
  static const char* call = "dart_team_clone";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, newteam != NULL, "newteam is NULL");
  TEAM_OR_RETURN(parent, call, teamid);
  MPI_Comm comm = MPI_COMM_NULL;
  DART_MPI_CALL(call, dart__polled_barrier(call, parent));
  DART_MPI_CALL(call, MPI_Comm_dup(parent->comm, &comm));
  return register_new_team(call, parent, comm, newteam);
}

dart_ret_t dart_team_destroy(dart_team_t* teamid) {
  static const char* call = "dart_team_destroy";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, teamid != NULL, "teamid is NULL");
  DART_CHECK_ARG(call, *teamid != DART_TEAM_ALL, "DART_TEAM_ALL cannot be destroyed");
  TEAM_OR_RETURN(team, call, *teamid);
  dart__state.teams[*teamid] = NULL;
  dart_ret_t ret = dart__team_teardown(call, team);
  *teamid = DART_TEAM_NULL;
  return ret;
}

dart_ret_t dart_team_get_parent(dart_team_t teamid, dart_team_t* parent) {
  DART_CHECK_INIT("dart_team_get_parent");
  DART_CHECK_ARG("dart_team_get_parent", parent != NULL, "parent is NULL");
  TEAM_OR_RETURN(team, "dart_team_get_parent", teamid);
  *parent = team->parent;
  return DART_OK;
}

dart_ret_t dart_team_get_group(dart_team_t teamid, dart_group_t* group) {
  DART_CHECK_INIT("dart_team_get_group");
  DART_CHECK_ARG("dart_team_get_group", group != NULL, "group is NULL");
  TEAM_OR_RETURN(team, "dart_team_get_group", teamid);
  return dart__group_from_units(team->l2g, (size_t)team->size, group);
}

dart_ret_t dart_team_myid(dart_team_t teamid, dart_team_unit_t* myid) {
  DART_CHECK_INIT("dart_team_myid");
  DART_CHECK_ARG("dart_team_myid", myid != NULL, "myid is NULL");
  TEAM_OR_RETURN(team, "dart_team_myid", teamid);
  myid->id = team->myid;
  return DART_OK;
}

dart_ret_t dart_team_size(dart_team_t teamid, size_t* size) {
  DART_CHECK_INIT("dart_team_size");
  DART_CHECK_ARG("dart_team_size", size != NULL, "size is NULL");
  TEAM_OR_RETURN(team, "dart_team_size", teamid);
  *size = (size_t)team->size;
  return DART_OK;
}

dart_ret_t dart_team_unit_l2g(dart_team_t teamid, dart_team_unit_t localid,
                              dart_global_unit_t* globalid) {
  static const char* call = "dart_team_unit_l2g";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, globalid != NULL, "globalid is NULL");
  TEAM_OR_RETURN(team, call, teamid);
  DART_CHECK_ARG(call, localid.id >= 0 && localid.id < team->size,
                 "unit %d is not in team %d of %d units", localid.id, (int)teamid, team->size);
  globalid->id = team->l2g[localid.id];
  return DART_OK;
}

dart_ret_t dart_team_unit_g2l(dart_team_t teamid, dart_global_unit_t globalid,
                              dart_team_unit_t* localid) {
  static const char* call = "dart_team_unit_g2l";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, localid != NULL, "localid is NULL");
  TEAM_OR_RETURN(team, call, teamid);
  DART_CHECK_ARG(call, globalid.id >= 0 && globalid.id < dart__state.size,
                 "unit %d is not a unit of DART_TEAM_ALL (%d units)", globalid.id,
                 dart__state.size);
  localid->id = team->g2l[globalid.id];
  return DART_OK;
}

dart_ret_t dart_myid(dart_global_unit_t* myid) {
  DART_CHECK_INIT("dart_myid");
  DART_CHECK_ARG("dart_myid", myid != NULL, "myid is NULL");
  myid->id = dart__state.myid;
  return DART_OK;
}

dart_ret_t dart_size(size_t* size) {
  DART_CHECK_INIT("dart_size");
  DART_CHECK_ARG("dart_size", size != NULL, "size is NULL");
  *size = (size_t)dart__state.size;
  return DART_OK;
}

dart_ret_t dart_team_mpi_comm(dart_team_t teamid, MPI_Comm* comm) {
  static const char* call = "dart_team_mpi_comm";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, comm != NULL, "comm is NULL");
  dart_team_data_t* team = dart__team_checked(call, teamid);
  if (team == NULL) return DART_ERR_INVAL;
  *comm = team->comm;
  return DART_OK;
}
