/* Two-sided messages over a team's communicator: blocking send/recv,
 * non-blocking (synchronous-mode) sends completed through DART handles, and
 * matched probes, so that a receiver learns a message's size before it
 * receives it and no other probe can take the message in between. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dart_internal.h"

/* opaque_[0] holds the MPI_Message, opaque_[1] the message's size in bytes. */
_Static_assert(sizeof(MPI_Message) <= sizeof(uint64_t), "an MPI_Message must fit 64 bits");

/* The MPI standard guarantees tags up to 32767 on every implementation. */
#define DART_TAG_MAX 32767

#define CHECK_TAG(call, tag) \
  DART_CHECK_ARG(call, (tag) >= 0 && (tag) <= DART_TAG_MAX, "tag %d outside 0..32767", (tag))

#define CHECK_UNIT(call, team, unit)                                                     \
  DART_CHECK_ARG(call, (unit) >= 0 && (unit) < (team)->size,                             \
                 "unit %d is not a unit of team %d (%d units)", (unit), (int)(team)->id, \
                 (team)->size)

/* Messages of more than INT_MAX bytes go as one element of a derived type (dart__byte_type). */
#define CHECK_BYTES(call, n) \
  DART_CHECK_ARG(call, (n) <= ((size_t)1 << 60), "%zu bytes exceed one message (2^60)", (size_t)(n))

/* The bytes a probed message holds (MPI_Get_elements_x: right beyond INT_MAX too). Returns an
 * MPI error code. */
static int message_bytes(const MPI_Status* status, size_t* bytes) {
  MPI_Count count = 0;
  const int ret = MPI_Get_elements_x(status, MPI_BYTE, &count);
  *bytes = count > 0 ? (size_t)count : 0;
  return ret;
}

/* MPI_Mrecv of up to nbytes bytes into buf, through dart__byte_type. */
static int mrecv_bytes(void* buf, size_t nbytes, MPI_Message* message) {
  int count = 0;
  MPI_Datatype type = MPI_BYTE;
  int ret = dart__byte_type(nbytes, &count, &type);
  if (ret == MPI_SUCCESS) ret = MPI_Mrecv(buf, count, type, message, MPI_STATUS_IGNORE);
  dart__byte_type_free(&type);
  return ret;
}

static MPI_Message* mpi_message(dart_message_t* message) {
  return (MPI_Message*)&message->opaque_[0];
}

/* Waits for a message from rank with tag and matches it into *message
 * (MPI_Mprobe), or with message NULL only looks at it (MPI_Probe); when waits
 * poll, by MPI_Improbe / MPI_Iprobe polls that give the core away as
 * dart__wait_requests does. */
static int probe_wait(const char* call, dart_team_data_t* team, int rank, int tag,
                      MPI_Message* message, MPI_Status* status) {
  if (!dart__state.poll_waits) {
    return message != NULL ? MPI_Mprobe(rank, tag, team->comm, message, status)
                           : MPI_Probe(rank, tag, team->comm, status);
  }
  const dart_wait_site_t site = {call, team, rank == MPI_ANY_SOURCE ? DART_WAIT_ANY_PEER : rank, 0,
                                 MPI_WIN_NULL};
  const bool watch = dart__state.config.watchdog_seconds > 0;
  uint64_t start = watch ? dart__watchdog_now() : 0;
  bool reported = false;
  for (int polls = 0;; ++polls) {
    int flag = 0;
    int ret = message != NULL ? MPI_Improbe(rank, tag, team->comm, &flag, message, status)
                              : MPI_Iprobe(rank, tag, team->comm, &flag, status);
    if (ret != MPI_SUCCESS || flag) return ret;
    if (watch && polls % 64 == 63) dart__watchdog_check(&site, start, &reported);
    dart__idle_pause(polls);
    if (polls == INT_MAX - 1) polls = 64;
  }
}

/* The checks of dart_send/dart_recv; finds DART_TEAM_ALL and the type. */
static dart_ret_t check_typed(const char* call, const void* buf, size_t nelem,
                              dart_datatype_t dtype, int tag, dart_global_unit_t unit,
                              dart_team_data_t** team_out, const dart_type_info_t** t_out) {
  DART_CHECK_INIT(call);
  dart_team_data_t* team = dart__team_checked(call, DART_TEAM_ALL);
  if (team == NULL) return DART_ERR_INVAL;
  const dart_type_info_t* t = dart__type(dtype);
  DART_CHECK_ARG(call, t != NULL && !dart__type_is_layout(t),
                 "data type %ld is not a basic or custom type", (long)dtype);
  DART_CHECK_ARG(call, buf != NULL || nelem == 0, "buf is NULL");
  DART_CHECK_ARG(call, nelem <= INT_MAX, "%zu elements exceed one message", nelem);
  CHECK_TAG(call, tag);
  CHECK_UNIT(call, team, unit.id);
  *team_out = team;
  *t_out = t;
  return DART_OK;
}

/* The send of dart_send and dart_sendrecv, after their checks: started
 * (send_start), then completed (send_wait, under the watchdog). */
static int send_start(dart_team_data_t* team, const dart_type_info_t* t, const void* buf,
                      size_t nelem, int tag, dart_global_unit_t unit, MPI_Request* req) {
  return MPI_Isend(buf, (int)nelem, t->mpi, unit.id, tag, team->comm, req);
}

static int send_wait(const char* call, dart_team_data_t* team, dart_global_unit_t unit,
                     MPI_Request* req) {
  const dart_wait_site_t site = {call, team, unit.id, 0, MPI_WIN_NULL};
  return dart__wait_requests(&site, 1, req);
}

dart_ret_t dart_send(const void* buf, size_t nelem, dart_datatype_t dtype, int tag,
                     dart_global_unit_t unit) {
  static const char* call = "dart_send";
  dart_team_data_t* team = NULL;
  const dart_type_info_t* t = NULL;
  dart_ret_t checked = check_typed(call, buf, nelem, dtype, tag, unit, &team, &t);
  if (checked != DART_OK) return checked;
  MPI_Request req = MPI_REQUEST_NULL;
  int ret = send_start(team, t, buf, nelem, tag, unit, &req);
  if (ret == MPI_SUCCESS) ret = send_wait(call, team, unit, &req);
  return dart__mpi_error(ret, call, "MPI_Isend");
}

/* dart_recv after its checks: the message of unit and tag, of exactly nelem
 * elements of t. */
static dart_ret_t recv_checked(const char* call, dart_team_data_t* team, const dart_type_info_t* t,
                               void* buf, size_t nelem, int tag, dart_global_unit_t unit) {
  /* Probe first without matching, so that a message of the wrong size is
   * reported and dropped (received whole into scratch memory: a truncating
   * MPI_Mrecv is fatal in MPICH, its error handler is not the team's)
   * instead of truncated or half-filling buf; the scratch memory is taken
   * before the message is matched, so when there is none the message stays
   * queued for a later receive. Then it is matched (the first message of
   * unit and tag, the one probed) and received. */
  MPI_Status status;
  int ret = probe_wait(call, team, unit.id, tag, NULL, &status);
  if (ret != MPI_SUCCESS) return dart__mpi_error(ret, call, "MPI_Probe");
  /* A failure here leaves the message queued (only probed). */
  int count = 0;
  ret = MPI_Get_count(&status, t->mpi, &count);
  if (ret != MPI_SUCCESS) return dart__mpi_error(ret, call, "MPI_Get_count");
  const bool wrong_size = count == MPI_UNDEFINED || (size_t)count != nelem;
  size_t bytes = 0;
  void* scratch = NULL;
  if (wrong_size) {
    ret = message_bytes(&status, &bytes);
    if (ret != MPI_SUCCESS) return dart__mpi_error(ret, call, "MPI_Get_elements_x");
    scratch = malloc(bytes > 0 ? bytes : 1);
    if (scratch == NULL)
      return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call,
                                "message from unit %d with tag %d does not hold %zu elements, and "
                                "there is no memory to drop its %zu bytes: it stays queued",
                                unit.id, tag, nelem, bytes);
  }
  MPI_Message message = MPI_MESSAGE_NULL;
  ret = MPI_Mprobe(unit.id, tag, team->comm, &message, &status);
  if (ret == MPI_SUCCESS) {
    ret = wrong_size ? mrecv_bytes(scratch, bytes, &message)
                     : MPI_Mrecv(buf, (int)nelem, t->mpi, &message, MPI_STATUS_IGNORE);
  }
  free(scratch);
  if (ret != MPI_SUCCESS) return dart__mpi_error(ret, call, "MPI_Mrecv");
  if (wrong_size)
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                              "message from unit %d with tag %d does not hold %zu elements",
                              unit.id, tag, nelem);
  return DART_OK;
}

dart_ret_t dart_recv(void* buf, size_t nelem, dart_datatype_t dtype, int tag,
                     dart_global_unit_t unit) {
  static const char* call = "dart_recv";
  dart_team_data_t* team = NULL;
  const dart_type_info_t* t = NULL;
  dart_ret_t checked = check_typed(call, buf, nelem, dtype, tag, unit, &team, &t);
  if (checked != DART_OK) return checked;
  return recv_checked(call, team, t, buf, nelem, tag, unit);
}

dart_ret_t dart_sendrecv(const void* sendbuf, size_t send_nelem, dart_datatype_t send_dtype,
                         int send_tag, dart_global_unit_t dest, void* recvbuf, size_t recv_nelem,
                         dart_datatype_t recv_dtype, int recv_tag, dart_global_unit_t src) {
  static const char* call = "dart_sendrecv";
  dart_team_data_t* team = NULL;
  const dart_type_info_t *st = NULL, *rt = NULL;
  dart_ret_t checked =
      check_typed(call, sendbuf, send_nelem, send_dtype, send_tag, dest, &team, &st);
  if (checked == DART_OK)
    checked = check_typed(call, recvbuf, recv_nelem, recv_dtype, recv_tag, src, &team, &rt);
  if (checked != DART_OK) return checked;
  /* The send goes out first, without waiting, so two units exchanging with
   * each other cannot block; the receive is dart_recv's (the exact size). */
  MPI_Request req = MPI_REQUEST_NULL;
  int ret = send_start(team, st, sendbuf, send_nelem, send_tag, dest, &req);
  if (ret != MPI_SUCCESS) return dart__mpi_error(ret, call, "MPI_Isend");
  dart_ret_t received = recv_checked(call, team, rt, recvbuf, recv_nelem, recv_tag, src);
  ret = send_wait(call, team, dest, &req);
  if (ret != MPI_SUCCESS) return dart__mpi_error(ret, call, "MPI_Isend");
  return received;
}

static dart_ret_t start_send(const char* call, bool synchronous, const void* buf, size_t nbytes,
                             int tag, dart_team_unit_t unit, dart_team_t teamid,
                             dart_handle_t* handle) {
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, handle != NULL, "handle is NULL");
  DART_CHECK_ARG(call, buf != NULL || nbytes == 0, "buf is NULL");
  dart_team_data_t* team = dart__team_checked(call, teamid);
  if (team == NULL) return DART_ERR_INVAL;
  CHECK_TAG(call, tag);
  CHECK_UNIT(call, team, unit.id);
  CHECK_BYTES(call, nbytes);
  dart_handle_t h = dart__handle_new(DART_HANDLE_P2P, 1);
  if (h == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  int count = 0;
  MPI_Datatype type = MPI_BYTE;
  int ret = dart__byte_type(nbytes, &count, &type);
  if (ret == MPI_SUCCESS)
    ret = synchronous ? MPI_Issend(buf, count, type, unit.id, tag, team->comm, &h->reqs[0])
                      : MPI_Isend(buf, count, type, unit.id, tag, team->comm, &h->reqs[0]);
  dart__byte_type_free(&type); /* a started send keeps what it needs */
  if (ret != MPI_SUCCESS) {
    dart__handle_release(h);
    return dart__mpi_error(ret, call, synchronous ? "MPI_Issend" : "MPI_Isend");
  }
  h->nreq = 1;
  h->team = team->id;
  *handle = h;
  return DART_OK;
}

dart_ret_t dart_isend(const void* buf, size_t nbytes, int tag, dart_team_unit_t unit,
                      dart_team_t team, dart_handle_t* handle) {
  return start_send("dart_isend", false, buf, nbytes, tag, unit, team, handle);
}

dart_ret_t dart_issend(const void* buf, size_t nbytes, int tag, dart_team_unit_t unit,
                       dart_team_t team, dart_handle_t* handle) {
  return start_send("dart_issend", true, buf, nbytes, tag, unit, team, handle);
}

/* Checks the probe arguments and finds the team; NULL after logging. */
static dart_ret_t prepare_probe(const char* call, int tag, dart_team_unit_t source,
                                dart_team_t teamid, const void* message, const void* from,
                                const void* nbytes, dart_team_data_t** team) {
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, message != NULL && from != NULL && nbytes != NULL,
                 "message, from or nbytes is NULL");
  *team = dart__team_checked(call, teamid);
  if (*team == NULL) return DART_ERR_INVAL;
  CHECK_TAG(call, tag);
  if (source.id != DART_UNDEFINED_UNIT_ID) CHECK_UNIT(call, *team, source.id);
  return DART_OK;
}

/* The sender and size of a matched message. On an MPI failure DART_ERR_OTHER (logged); the
 * message's size is then unknown, and dart_mrecv refuses it rather than truncate it. */
static dart_ret_t report_match(const char* call, const MPI_Status* status, dart_message_t* message,
                               dart_team_unit_t* from, size_t* nbytes) {
  size_t bytes = 0;
  const int ret = message_bytes(status, &bytes);
  if (ret != MPI_SUCCESS) {
    message->opaque_[1] = UINT64_MAX;
    return dart__mpi_error(ret, call, "MPI_Get_elements_x");
  }
  from->id = status->MPI_SOURCE;
  *nbytes = bytes;
  message->opaque_[1] = (uint64_t)bytes;
  return DART_OK;
}

dart_ret_t dart_improbe(int tag, dart_team_unit_t source, dart_team_t teamid, int32_t* found,
                        dart_message_t* message, dart_team_unit_t* from, size_t* nbytes) {
  static const char* call = "dart_improbe";
  dart_team_data_t* team = NULL;
  DART_CHECK_ARG(call, found != NULL, "found is NULL");
  dart_ret_t ret = prepare_probe(call, tag, source, teamid, message, from, nbytes, &team);
  if (ret != DART_OK) return ret;
  const int rank = source.id == DART_UNDEFINED_UNIT_ID ? MPI_ANY_SOURCE : source.id;
  int flag = 0;
  MPI_Status status;
  int mpi_ret = MPI_Improbe(rank, tag, team->comm, &flag, mpi_message(message), &status);
  if (mpi_ret != MPI_SUCCESS) return dart__mpi_error(mpi_ret, call, "MPI_Improbe");
  if (flag) {
    ret = report_match(call, &status, message, from, nbytes);
    if (ret != DART_OK) return ret;
  }
  *found = flag;
  return DART_OK;
}

dart_ret_t dart_mprobe(int tag, dart_team_unit_t source, dart_team_t teamid,
                       dart_message_t* message, dart_team_unit_t* from, size_t* nbytes) {
  static const char* call = "dart_mprobe";
  dart_team_data_t* team = NULL;
  dart_ret_t ret = prepare_probe(call, tag, source, teamid, message, from, nbytes, &team);
  if (ret != DART_OK) return ret;
  const int rank = source.id == DART_UNDEFINED_UNIT_ID ? MPI_ANY_SOURCE : source.id;
  MPI_Status status;
  int mpi_ret = probe_wait(call, team, rank, tag, mpi_message(message), &status);
  if (mpi_ret != MPI_SUCCESS) return dart__mpi_error(mpi_ret, call, "MPI_Mprobe");
  return report_match(call, &status, message, from, nbytes);
}

/* The checks of dart_mrecv and dart_imrecv: a matched message not yet received, a buffer that
 * holds it (a truncating receive is fatal in MPICH: refused here). */
static dart_ret_t check_mrecv(const char* call, const void* buf, size_t nbytes,
                              dart_message_t* message) {
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, message != NULL, "message is NULL");
  DART_CHECK_ARG(call, buf != NULL || nbytes == 0, "buf is NULL");
  CHECK_BYTES(call, nbytes);
  DART_CHECK_ARG(call, *mpi_message(message) != MPI_MESSAGE_NULL,
                 "the message was already received");
  DART_CHECK_ARG(call, nbytes >= message->opaque_[1],
                 "buf holds %zu bytes, the message %llu (the size dart_improbe reported)", nbytes,
                 (unsigned long long)message->opaque_[1]);
  return DART_OK;
}

dart_ret_t dart_imrecv(void* buf, size_t nbytes, dart_message_t* message, dart_handle_t* handle) {
  static const char* call = "dart_imrecv";
  DART_CHECK_ARG(call, handle != NULL, "handle is NULL");
  dart_ret_t checked = check_mrecv(call, buf, nbytes, message);
  if (checked != DART_OK) return checked;
  dart_handle_t h = dart__handle_new(DART_HANDLE_P2P, 1);
  if (h == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  int count = 0;
  MPI_Datatype type = MPI_BYTE;
  int ret = dart__byte_type(nbytes, &count, &type);
  if (ret == MPI_SUCCESS) ret = MPI_Imrecv(buf, count, type, mpi_message(message), &h->reqs[0]);
  dart__byte_type_free(&type); /* a started receive keeps what it needs */
  if (ret != MPI_SUCCESS) {
    dart__handle_release(h);
    return dart__mpi_error(ret, call, "MPI_Imrecv");
  }
  h->nreq = 1;
  h->team = DART_TEAM_NULL;
  h->target = DART_WAIT_ANY_PEER; /* the message knows its sender, the handle does not */
  *handle = h;
  return DART_OK;
}

dart_ret_t dart_mrecv(void* buf, size_t nbytes, dart_message_t* message) {
  static const char* call = "dart_mrecv";
  dart_ret_t checked = check_mrecv(call, buf, nbytes, message);
  if (checked != DART_OK) return checked;
  return dart__mpi_error(mrecv_bytes(buf, nbytes, mpi_message(message)), call, "MPI_Mrecv");
}
