/* Collectives over a team's communicator. Element counts above INT_MAX are
 * split into rounds where the operation allows it (bcast, reduce,
 * allreduce); the gather family rejects them. */
#include <limits.h>
#include <stdlib.h>

#include "dart_internal.h"

/* Validates team, type and (for reductions) op. */
static dart_ret_t prepare(const char* call, dart_team_t teamid, dart_datatype_t dtype,
                          dart_team_data_t** team, const dart_type_info_t** t) {
  DART_CHECK_INIT(call);
  *team = dart__team_checked(call, teamid);
  if (*team == NULL) return DART_ERR_INVAL;
  *t = dart__type(dtype);
  DART_CHECK_ARG(call, *t != NULL && !dart__type_is_layout(*t),
                 "data type %ld is not a basic or custom type", (long)dtype);
  return DART_OK;
}

#define PREPARE(call, teamid, dtype)                                      \
  dart_team_data_t* team;                                                 \
  const dart_type_info_t* t;                                              \
  do {                                                                    \
    dart_ret_t prep_ret_ = prepare((call), (teamid), (dtype), &team, &t); \
    if (prep_ret_ != DART_OK) return prep_ret_;                           \
  } while (0)

#define CHECK_ROOT(call, root)                                                            \
  DART_CHECK_ARG(call, (root).id >= 0 && (root).id < team->size,                          \
                 "root %d is not a unit of team %d (%d units)", (root).id, (int)team->id, \
                 team->size)

#define CHECK_COUNT(call, n) \
  DART_CHECK_ARG(call, (n) <= INT_MAX, "%zu elements exceed one MPI collective", (size_t)(n))

/* For the operations split into rounds: the buffer size must not overflow. */
#define CHECK_SPAN(call, n)                                                                    \
  DART_CHECK_ARG(call, (n) <= SIZE_MAX / t->size, "%zu elements of %zu bytes overflow size_t", \
                 (size_t)(n), t->size)

dart_ret_t dart_barrier(dart_team_t teamid) {
  static const char* call = "dart_barrier";
  DART_CHECK_INIT(call);
  dart_team_data_t* team = dart__team_checked(call, teamid);
  if (team == NULL) return DART_ERR_INVAL;
  __atomic_thread_fence(__ATOMIC_SEQ_CST); /* publish fast-path stores */
  DART_MPI_COLLECTIVE(call, team, MPI_Barrier(team->comm), MPI_Ibarrier(team->comm, &req_));
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  return DART_OK;
}

dart_ret_t dart_bcast(void* buf, size_t nelem, dart_datatype_t dtype, dart_team_unit_t root,
                      dart_team_t teamid) {
  static const char* call = "dart_bcast";
  PREPARE(call, teamid, dtype);
  CHECK_ROOT(call, root);
  DART_CHECK_ARG(call, buf != NULL || nelem == 0, "buf is NULL");
  CHECK_SPAN(call, nelem);
  for (size_t first = 0; first < nelem || first == 0; first += INT_MAX) {
    size_t count = nelem - first < INT_MAX ? nelem - first : INT_MAX;
    char* part = (char*)buf + first * t->size;
    DART_MPI_COLLECTIVE(call, team, MPI_Bcast(part, (int)count, t->mpi, root.id, team->comm),
                        MPI_Ibcast(part, (int)count, t->mpi, root.id, team->comm, &req_));
    if (nelem == 0) break;
  }
  return DART_OK;
}

dart_ret_t dart_scatter(const void* sendbuf, void* recvbuf, size_t nelem, dart_datatype_t dtype,
                        dart_team_unit_t root, dart_team_t teamid) {
  static const char* call = "dart_scatter";
  PREPARE(call, teamid, dtype);
  CHECK_ROOT(call, root);
  CHECK_COUNT(call, nelem);
  DART_MPI_COLLECTIVE(
      call, team,
      MPI_Scatter(sendbuf, (int)nelem, t->mpi, recvbuf, (int)nelem, t->mpi, root.id, team->comm),
      MPI_Iscatter(sendbuf, (int)nelem, t->mpi, recvbuf, (int)nelem, t->mpi, root.id, team->comm,
                   &req_));
  return DART_OK;
}

dart_ret_t dart_gather(const void* sendbuf, void* recvbuf, size_t nelem, dart_datatype_t dtype,
                       dart_team_unit_t root, dart_team_t teamid) {
  static const char* call = "dart_gather";
  PREPARE(call, teamid, dtype);
  CHECK_ROOT(call, root);
  CHECK_COUNT(call, nelem);
  DART_MPI_COLLECTIVE(
      call, team,
      MPI_Gather(sendbuf, (int)nelem, t->mpi, recvbuf, (int)nelem, t->mpi, root.id, team->comm),
      MPI_Igather(sendbuf, (int)nelem, t->mpi, recvbuf, (int)nelem, t->mpi, root.id, team->comm,
                  &req_));
  return DART_OK;
}

dart_ret_t dart_allgather(const void* sendbuf, void* recvbuf, size_t nelem, dart_datatype_t dtype,
                          dart_team_t teamid) {
  static const char* call = "dart_allgather";
  PREPARE(call, teamid, dtype);
  CHECK_COUNT(call, nelem);
  DART_MPI_COLLECTIVE(
      call, team,
      MPI_Allgather(sendbuf, (int)nelem, t->mpi, recvbuf, (int)nelem, t->mpi, team->comm),
      MPI_Iallgather(sendbuf, (int)nelem, t->mpi, recvbuf, (int)nelem, t->mpi, team->comm, &req_));
  return DART_OK;
}

/* MPI_Allgatherv with int counts, blocking or polled (DART_MPI_COLLECTIVE). */
static dart_ret_t allgatherv_ints(const char* call, const void* sendbuf, int nsend,
                                  const dart_type_info_t* t, void* recvbuf, const int* counts,
                                  const int* displs, dart_team_data_t* team) {
  DART_MPI_COLLECTIVE(
      call, team,
      MPI_Allgatherv(sendbuf, nsend, t->mpi, recvbuf, counts, displs, t->mpi, team->comm),
      MPI_Iallgatherv(sendbuf, nsend, t->mpi, recvbuf, counts, displs, t->mpi, team->comm, &req_));
  return DART_OK;
}

/* MPI_Alltoallv with int counts, blocking or polled (DART_MPI_COLLECTIVE). */
static dart_ret_t alltoallv_ints(const char* call, const void* sendbuf, const int* scounts,
                                 const int* sdispls, const dart_type_info_t* t, void* recvbuf,
                                 const int* rcounts, const int* rdispls, dart_team_data_t* team) {
  DART_MPI_COLLECTIVE(call, team,
                      MPI_Alltoallv(sendbuf, scounts, sdispls, t->mpi, recvbuf, rcounts, rdispls,
                                    t->mpi, team->comm),
                      MPI_Ialltoallv(sendbuf, scounts, sdispls, t->mpi, recvbuf, rcounts, rdispls,
                                     t->mpi, team->comm, &req_));
  return DART_OK;
}

/* The units of a collective whose set-up can fail on one unit (memory for
 * its int counts, counts above INT_MAX) agree on the set-up before the
 * collective: one allreduce of the worst error, so that a unit that cannot
 * take part does not leave the others waiting. Returns `mine` on a failing
 * unit, DART_ERR_OTHER (logged) on the others, DART_OK when every unit is
 * ready. Collective. */
static dart_ret_t agree_on_setup_big(const char* call, dart_team_data_t* team, dart_ret_t mine,
                                     int* big) {
  int flags[2] = {mine != DART_OK, *big}, any[2] = {0, 0};
  DART_MPI_COLLECTIVE(call, team, MPI_Allreduce(flags, any, 2, MPI_INT, MPI_MAX, team->comm),
                      MPI_Iallreduce(flags, any, 2, MPI_INT, MPI_MAX, team->comm, &req_));
  *big = any[1];
  if (mine != DART_OK) return mine;
  if (any[0] != 0)
    return DART_LOG_ERROR_RET(DART_ERR_OTHER, call,
                              "another unit of team %d could not set up its part", (int)team->id);
  return DART_OK;
}

static dart_ret_t agree_on_setup(const char* call, dart_team_data_t* team, dart_ret_t mine) {
  int big = 0;
  return agree_on_setup_big(call, team, mine, &big);
}

/* MPI_Alltoallw of one element of types[u] to and of types[size + u] from every unit u,
 * blocking or polled; counts and displacements come from `ints` (4 x size, filled here). */
static dart_ret_t alltoallw_types(const char* call, const void* sendbuf, void* recvbuf,
                                  MPI_Datatype* types, int* ints, dart_team_data_t* team) {
  const int n = team->size;
  for (int u = 0; u < 2 * n; ++u) ints[u] = 1, ints[2 * n + u] = 0;
  DART_MPI_COLLECTIVE(call, team,
                      MPI_Alltoallw(sendbuf, ints, ints + 2 * n, types, recvbuf, ints + n,
                                    ints + 3 * n, types + n, team->comm),
                      MPI_Ialltoallw(sendbuf, ints, ints + 2 * n, types, recvbuf, ints + n,
                                     ints + 3 * n, types + n, team->comm, &req_));
  return DART_OK;
}

/* MPI_Alltoall of one uint64_t per unit, blocking or polled. */
static dart_ret_t alltoall_sizes(const char* call, const uint64_t* send, uint64_t* recv,
                                 dart_team_data_t* team) {
  DART_MPI_COLLECTIVE(
      call, team, MPI_Alltoall(send, 1, MPI_UINT64_T, recv, 1, MPI_UINT64_T, team->comm),
      MPI_Ialltoall(send, 1, MPI_UINT64_T, recv, 1, MPI_UINT64_T, team->comm, &req_));
  return DART_OK;
}

/* The path of dart_alltoallv and dart_allgatherv for counts or offsets beyond INT_MAX elements,
 * taken by every unit of the team when one needs it: one MPI_Alltoallw whose per-unit types
 * (dart__byte_type_at) carry every size and offset in bytes. Unit u gets nsend[u] elements from
 * element sdispl[u] of sendbuf (sdispl NULL: from element 0 for every unit) and sends
 * nrecv[u] elements to element rdispl[u] of recvbuf. `ready`: DART_OK, or this unit's failure
 * before the call (agreed with the others). Collective. */
static dart_ret_t exchange_big(const char* call, dart_ret_t ready, const void* sendbuf,
                               const size_t* nsend, const size_t* sdispl, void* recvbuf,
                               const size_t* nrecv, const size_t* rdispl, const dart_type_info_t* t,
                               dart_team_data_t* team) {
  const int n = team->size;
  MPI_Datatype* types = malloc(2 * (size_t)n * sizeof *types);
  int* ints = malloc(4 * (size_t)n * sizeof *ints);
  uint64_t* sizes = malloc(2 * (size_t)n * sizeof *sizes);
  dart_ret_t ret = ready;
  if (ret == DART_OK && (types == NULL || ints == NULL || sizes == NULL))
    ret = DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  for (int k = 0; k < 2 * n && ret == DART_OK; ++k) {
    const int u = k % n;
    const size_t first = k < n ? (sdispl != NULL ? sdispl[u] : 0) : rdispl[u];
    const size_t count = k < n ? nsend[u] : nrecv[u];
    if (first > SIZE_MAX / t->size || count > SIZE_MAX / t->size - first)
      ret = DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                               "the elements for unit %d overflow the address space", u);
  }
  /* Beyond INT_MAX a wrong count would read or write far outside the buffers: every unit checks
   * that what each unit sends it is what it expects (one alltoall of the counts). */
  ret = agree_on_setup(call, team, ret);
  if (ret == DART_OK) {
    for (int u = 0; u < n; ++u) sizes[u] = nsend[u];
    ret = alltoall_sizes(call, sizes, sizes + n, team);
  }
  for (int u = 0; u < n && ret == DART_OK; ++u)
    if (sizes[n + u] != nrecv[u])
      ret = DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                               "unit %d sends %llu elements where %zu are expected", u,
                               (unsigned long long)sizes[n + u], nrecv[u]);
  int made = 0;
  for (; made < 2 * n && ret == DART_OK; ++made) {
    const int u = made % n;
    const bool send = made < n;
    const size_t first = send ? (sdispl != NULL ? sdispl[u] : 0) : rdispl[u];
    const size_t count = send ? nsend[u] : nrecv[u];
    const int mpi = dart__byte_type_at(first * t->size, count * t->size, &types[made]);
    if (mpi != MPI_SUCCESS) {
      ret = dart__mpi_error(mpi, call, "MPI_Type_create_struct");
      break;
    }
  }
  ret = agree_on_setup(call, team, ret);
  if (ret == DART_OK) ret = alltoallw_types(call, sendbuf, recvbuf, types, ints, team);
  /* The data has moved (or the agreed error stands): a failed free only leaks a type. */
  for (int k = 0; k < made; ++k) (void)MPI_Type_free(&types[k]);
  free(types);
  free(ints);
  free(sizes);
  return ret;
}

dart_ret_t dart_allgatherv(const void* sendbuf, size_t nsendelem, dart_datatype_t dtype,
                           void* recvbuf, const size_t* nrecvelem, const size_t* recvdispls,
                           dart_team_t teamid) {
  static const char* call = "dart_allgatherv";
  PREPARE(call, teamid, dtype);
  DART_CHECK_ARG(call, nrecvelem != NULL && recvdispls != NULL, "nrecvelem or recvdispls is NULL");
  int* counts = malloc(2 * (size_t)team->size * sizeof *counts);
  dart_ret_t ret = DART_OK;
  int big = nsendelem > INT_MAX;
  if (nsendelem != nrecvelem[team->myid])
    ret = DART_LOG_ERROR_RET(DART_ERR_INVAL, call, "nsendelem %zu differs from nrecvelem[%d] = %zu",
                             nsendelem, team->myid, nrecvelem[team->myid]);
  else if (counts == NULL)
    ret = DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  int* displs = counts + team->size;
  for (int u = 0; u < team->size && ret == DART_OK; ++u) {
    if (nrecvelem[u] > INT_MAX || recvdispls[u] > INT_MAX) big = 1;
    counts[u] = (int)nrecvelem[u];
    displs[u] = (int)recvdispls[u];
  }
  ret = agree_on_setup_big(call, team, ret, &big);
  if (ret == DART_OK && !big)
    ret = allgatherv_ints(call, sendbuf, (int)nsendelem, t, recvbuf, counts, displs, team);
  free(counts);
  if (ret == DART_OK && big) { /* beyond INT_MAX somewhere: every unit takes this path */
    size_t* nsend = malloc((size_t)team->size * sizeof *nsend);
    if (nsend != NULL)
      for (int u = 0; u < team->size; ++u) nsend[u] = nsendelem;
    ret = exchange_big(
        call, nsend != NULL ? DART_OK : DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory"),
        sendbuf, nsend, NULL, recvbuf, nrecvelem, recvdispls, t, team);
    free(nsend);
  }
  return ret;
}

static dart_ret_t reduce_rounds(const char* call, const void* sendbuf, void* recvbuf, size_t nelem,
                                const dart_type_info_t* t, dart_operation_t op, int root,
                                dart_team_data_t* team) {
  /* An operation of the program's own (dart_op_create) reduces over its own copy of the type. */
  const dart_custom_op_t* custom = dart__custom_op(op);
  if (custom != NULL) {
    DART_CHECK_ARG(call, t->size == custom->size && !dart__type_is_layout(t),
                   "operation %d was made for type %ld (%zu bytes), not this one (%zu bytes)",
                   (int)op, (long)custom->dtype, custom->size, t->size);
  } else {
    dart_ret_t ret = dart__check_op(call, op, t, false);
    if (ret != DART_OK) return ret;
  }
  CHECK_SPAN(call, nelem);
  /* DART_OP_MINMAX moves whole pairs: one MPI element is two of t. */
  const bool pairs = op == DART_OP_MINMAX;
  DART_CHECK_ARG(call, !pairs || nelem % 2 == 0,
                 "DART_OP_MINMAX needs (min, max) pairs: nelem %zu is odd", nelem);
  const size_t per = pairs ? 2 : 1;
  const MPI_Datatype mt = custom != NULL ? custom->mpi_type
                          : pairs        ? dart__minmax_pair_type(t)
                                         : t->mpi;
  const MPI_Op mop = custom != NULL ? custom->mpi_op
                     : pairs        ? dart__minmax_op()
                                    : dart__mpi_reduce_op(op, t);
  const size_t n = nelem / per;
  for (size_t first = 0; first < n; first += INT_MAX) {
    size_t count = n - first < INT_MAX ? n - first : INT_MAX;
    const size_t offset = first * per * t->size;
    const void* send = sendbuf == MPI_IN_PLACE ? MPI_IN_PLACE : (const char*)sendbuf + offset;
    void* recv = recvbuf == NULL ? NULL : (char*)recvbuf + offset;
    if (root < 0) {
      DART_MPI_COLLECTIVE(call, team, MPI_Allreduce(send, recv, (int)count, mt, mop, team->comm),
                          MPI_Iallreduce(send, recv, (int)count, mt, mop, team->comm, &req_));
    } else {
      DART_MPI_COLLECTIVE(call, team, MPI_Reduce(send, recv, (int)count, mt, mop, root, team->comm),
                          MPI_Ireduce(send, recv, (int)count, mt, mop, root, team->comm, &req_));
    }
  }
  return DART_OK;
}

dart_ret_t dart_reduce(const void* sendbuf, void* recvbuf, size_t nelem, dart_datatype_t dtype,
                       dart_operation_t op, dart_team_unit_t root, dart_team_t teamid) {
  static const char* call = "dart_reduce";
  PREPARE(call, teamid, dtype);
  CHECK_ROOT(call, root);
  return reduce_rounds(call, sendbuf, recvbuf, nelem, t, op, root.id, team);
}

dart_ret_t dart_allreduce(const void* sendbuf, void* recvbuf, size_t nelem, dart_datatype_t dtype,
                          dart_operation_t op, dart_team_t teamid) {
  static const char* call = "dart_allreduce";
  PREPARE(call, teamid, dtype);
  return reduce_rounds(call, sendbuf, recvbuf, nelem, t, op, -1, team);
}

dart_ret_t dart_alltoall(const void* sendbuf, void* recvbuf, size_t nelem, dart_datatype_t dtype,
                         dart_team_t teamid) {
  static const char* call = "dart_alltoall";
  PREPARE(call, teamid, dtype);
  CHECK_COUNT(call, nelem);
  DART_MPI_COLLECTIVE(
      call, team,
      MPI_Alltoall(sendbuf, (int)nelem, t->mpi, recvbuf, (int)nelem, t->mpi, team->comm),
      MPI_Ialltoall(sendbuf, (int)nelem, t->mpi, recvbuf, (int)nelem, t->mpi, team->comm, &req_));
  return DART_OK;
}

dart_ret_t dart_alltoallv(const void* sendbuf, const size_t* nsendelem, const size_t* senddispls,
                          dart_datatype_t dtype, void* recvbuf, const size_t* nrecvelem,
                          const size_t* recvdispls, dart_team_t teamid) {
  static const char* call = "dart_alltoallv";
  PREPARE(call, teamid, dtype);
  DART_CHECK_ARG(call,
                 nsendelem != NULL && senddispls != NULL && nrecvelem != NULL && recvdispls != NULL,
                 "a count or offset array is NULL");
  int* ints = malloc(4 * (size_t)team->size * sizeof *ints);
  dart_ret_t ret = DART_OK;
  if (ints == NULL) ret = DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  int* scounts = ints;
  int* sdispls = ints + team->size;
  int* rcounts = ints + 2 * team->size;
  int* rdispls = ints + 3 * team->size;
  int big = 0;
  for (int u = 0; u < team->size && ret == DART_OK; ++u) {
    if (nsendelem[u] > INT_MAX || senddispls[u] > INT_MAX || nrecvelem[u] > INT_MAX ||
        recvdispls[u] > INT_MAX)
      big = 1;
    scounts[u] = (int)nsendelem[u];
    sdispls[u] = (int)senddispls[u];
    rcounts[u] = (int)nrecvelem[u];
    rdispls[u] = (int)recvdispls[u];
  }
  ret = agree_on_setup_big(call, team, ret, &big);
  if (ret == DART_OK && !big)
    ret = alltoallv_ints(call, sendbuf, scounts, sdispls, t, recvbuf, rcounts, rdispls, team);
  free(ints);
  if (ret == DART_OK && big) /* beyond INT_MAX somewhere: every unit takes this path */
    ret = exchange_big(call, DART_OK, sendbuf, nsendelem, senddispls, recvbuf, nrecvelem,
                       recvdispls, t, team);
  return ret;
}

dart_ret_t dart_ibarrier(dart_team_t teamid, dart_handle_t* handle) {
  static const char* call = "dart_ibarrier";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, handle != NULL, "handle is NULL");
  dart_team_data_t* team = dart__team_checked(call, teamid);
  if (team == NULL) return DART_ERR_INVAL;
  dart_handle_t h = dart__handle_new(DART_HANDLE_COLL, 1);
  if (h == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  h->team = team->id;
  h->collective = dart__wait_collective(call, team).collective;
  int ret = MPI_Ibarrier(team->comm, &h->reqs[0]);
  if (ret != MPI_SUCCESS) {
    dart__handle_release(h);
    return dart__mpi_error(ret, call, "MPI_Ibarrier");
  }
  h->nreq = 1;
  *handle = h;
  return DART_OK;
}

dart_ret_t dart_iallreduce(const void* sendbuf, void* recvbuf, size_t nelem, dart_datatype_t dtype,
                           dart_operation_t op, dart_team_t teamid, dart_handle_t* handle) {
  static const char* call = "dart_iallreduce";
  DART_CHECK_ARG(call, handle != NULL, "handle is NULL");
  PREPARE(call, teamid, dtype);
  CHECK_COUNT(call, nelem);
  const dart_custom_op_t* custom = dart__custom_op(op);
  if (custom != NULL) {
    DART_CHECK_ARG(call, t->size == custom->size,
                   "operation %d was made for type %ld (%zu bytes), not this one (%zu bytes)",
                   (int)op, (long)custom->dtype, custom->size, t->size);
  } else {
    dart_ret_t ret = dart__check_op(call, op, t, false);
    if (ret != DART_OK) return ret;
  }
  dart_handle_t h = dart__handle_new(DART_HANDLE_COLL, 1);
  if (h == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  h->team = team->id;
  h->collective = dart__wait_collective(call, team).collective;
  int mpi_ret = MPI_Iallreduce(
      sendbuf, recvbuf, (int)nelem, custom != NULL ? custom->mpi_type : t->mpi,
      custom != NULL ? custom->mpi_op : dart__mpi_reduce_op(op, t), team->comm, &h->reqs[0]);
  if (mpi_ret != MPI_SUCCESS) {
    dart__handle_release(h);
    return dart__mpi_error(mpi_ret, call, "MPI_Iallreduce");
  }
  h->nreq = 1;
  *handle = h;
  return DART_OK;
}
