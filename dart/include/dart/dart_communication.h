/* One-sided communication, atomics and collectives.
 *
 * Transfers name the remote side by a global pointer. Data of the calling
 * unit and of units on the same (real or emulated) node is moved by memcpy
 * through the shared window; other units are reached by MPI RMA inside the
 * passive-target epoch opened when the segment was allocated. Large RMA
 * transfers are split into chunks (DART_TRANSFER_CHUNK_SIZE bytes).
 *
 * Completion:
 * | form            | returns when                                            |
 * |-----------------|---------------------------------------------------------|
 * | dart_put/get    | at once; dart_flush* completes it (remote + local)      |
 * | *_handle        | at once; dart_wait/test on the handle complete it       |
 * | *_blocking      | the data has arrived (get) / is visible at the target (put) |
 *
 * nelem counts elements of the basic type; src_type and dst_type must have
 * the same basic type and may be strided (dart_type_create_strided) or indexed
 * (dart_type_create_indexed) to gather or scatter. */
#ifndef DART__DART_COMMUNICATION_H_
#define DART__DART_COMMUNICATION_H_

#include <dart/dart_types.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- put / get ---------------------------------------------------------- */

/* Starts a get of nelem elements from gptr into dest. One-sided. */
dart_ret_t dart_get(void* dest, dart_gptr_t gptr, size_t nelem, dart_datatype_t src_type,
                    dart_datatype_t dst_type);

/* Starts a put of nelem elements from src to gptr. One-sided. */
dart_ret_t dart_put(dart_gptr_t gptr, const void* src, size_t nelem, dart_datatype_t src_type,
                    dart_datatype_t dst_type);

/* Get that returns when dest holds the data. One-sided. */
dart_ret_t dart_get_blocking(void* dest, dart_gptr_t gptr, size_t nelem, dart_datatype_t src_type,
                             dart_datatype_t dst_type);

/* Put that returns when the data is visible at the target. One-sided. */
dart_ret_t dart_put_blocking(dart_gptr_t gptr, const void* src, size_t nelem,
                             dart_datatype_t src_type, dart_datatype_t dst_type);

/* Get completed through *handle (DART_HANDLE_NULL if done at once). One-sided. */
dart_ret_t dart_get_handle(void* dest, dart_gptr_t gptr, size_t nelem, dart_datatype_t src_type,
                           dart_datatype_t dst_type, dart_handle_t* handle);

/* Put completed through *handle (DART_HANDLE_NULL if done at once). One-sided. */
dart_ret_t dart_put_handle(dart_gptr_t gptr, const void* src, size_t nelem,
                           dart_datatype_t src_type, dart_datatype_t dst_type,
                           dart_handle_t* handle);

/* ---- completion ---------------------------------------------------------- */

/* Completes the operation (remotely for puts), frees the handle and sets it
 * to DART_HANDLE_NULL. Waiting on DART_HANDLE_NULL returns DART_OK. Local. */
dart_ret_t dart_wait(dart_handle_t* handle);

/* Completes the operation locally only (the source buffer of a put may be
 * reused), frees the handle. Local. */
dart_ret_t dart_wait_local(dart_handle_t* handle);

/* Completes n handles in any order. Local. */
dart_ret_t dart_waitall(dart_handle_t handles[], size_t n);

/* Completes n handles locally. Local. */
dart_ret_t dart_waitall_local(dart_handle_t handles[], size_t n);

/* *result = 1 and the handle is freed if the operation completed, else 0.
 * Local. */
dart_ret_t dart_test(dart_handle_t* handle, int32_t* result);

/* Like dart_test, local completion only. */
dart_ret_t dart_test_local(dart_handle_t* handle, int32_t* result);

/* *result = 1 if all n operations completed (all handles freed), else 0.
 * Local. */
dart_ret_t dart_testall(dart_handle_t handles[], size_t n, int32_t* result);

/* Like dart_testall, local completion only. */
dart_ret_t dart_testall_local(dart_handle_t handles[], size_t n, int32_t* result);

/* Completes all operations to gptr's unit on gptr's segment. Local. */
dart_ret_t dart_flush(dart_gptr_t gptr);

/* Completes all operations on gptr's segment, to all units. Local. */
dart_ret_t dart_flush_all(dart_gptr_t gptr);

/* Local completion of operations to gptr's unit on gptr's segment. Local. */
dart_ret_t dart_flush_local(dart_gptr_t gptr);

/* Local completion of all operations on gptr's segment. Local. */
dart_ret_t dart_flush_local_all(dart_gptr_t gptr);

/* ---- atomics (always through MPI, atomic with respect to each other) ---- */

/* Atomically combines nelem values into gptr with op (DART_OP_REPLACE
 * allowed). Completes with dart_flush. One-sided. */
dart_ret_t dart_accumulate(dart_gptr_t gptr, const void* values, size_t nelem,
                           dart_datatype_t dtype, dart_operation_t op);

/* Like dart_accumulate; returns when values may be reused. One-sided. */
dart_ret_t dart_accumulate_blocking_local(dart_gptr_t gptr, const void* values, size_t nelem,
                                          dart_datatype_t dtype, dart_operation_t op);

/* Atomically: *result = *gptr; *gptr = *gptr op *value. Blocking, one-sided. */
dart_ret_t dart_fetch_and_op(dart_gptr_t gptr, const void* value, void* result,
                             dart_datatype_t dtype, dart_operation_t op);

/* Atomically: *result = *gptr; if (*gptr == *compare) *gptr = *value.
 * Integer types only. Blocking, one-sided. */
dart_ret_t dart_compare_and_swap(dart_gptr_t gptr, const void* value, const void* compare,
                                 void* result, dart_datatype_t dtype);

/* ---- collectives (collective over teamid) ------------------------------- */

/* Waits until all units of the team arrived. */
dart_ret_t dart_barrier(dart_team_t teamid);

/* Copies nelem elements of root's buf to every unit's buf. */
dart_ret_t dart_bcast(void* buf, size_t nelem, dart_datatype_t dtype, dart_team_unit_t root,
                      dart_team_t teamid);

/* Unit i receives elements [i*nelem, (i+1)*nelem) of root's sendbuf. */
dart_ret_t dart_scatter(const void* sendbuf, void* recvbuf, size_t nelem, dart_datatype_t dtype,
                        dart_team_unit_t root, dart_team_t teamid);

/* Root receives nelem elements from each unit, in unit order. */
dart_ret_t dart_gather(const void* sendbuf, void* recvbuf, size_t nelem, dart_datatype_t dtype,
                       dart_team_unit_t root, dart_team_t teamid);

/* Every unit receives nelem elements from each unit, in unit order. */
dart_ret_t dart_allgather(const void* sendbuf, void* recvbuf, size_t nelem, dart_datatype_t dtype,
                          dart_team_t teamid);

/* Every unit receives nrecvelem[i] elements from unit i at element offset
 * recvdispls[i]; nsendelem must equal nrecvelem[myid]. Counts and offsets of
 * any size: beyond INT_MAX elements on some unit, every unit takes one
 * MPI_Alltoallw of byte types instead (one more allreduce). Collective. */
dart_ret_t dart_allgatherv(const void* sendbuf, size_t nsendelem, dart_datatype_t dtype,
                           void* recvbuf, const size_t* nrecvelem, const size_t* recvdispls,
                           dart_team_t teamid);

/* Root receives the element-wise reduction with op over all units. */
dart_ret_t dart_reduce(const void* sendbuf, void* recvbuf, size_t nelem, dart_datatype_t dtype,
                       dart_operation_t op, dart_team_unit_t root, dart_team_t teamid);

/* Every unit receives the element-wise reduction with op over all units. */
dart_ret_t dart_allreduce(const void* sendbuf, void* recvbuf, size_t nelem, dart_datatype_t dtype,
                          dart_operation_t op, dart_team_t teamid);

/* Unit j receives elements [j*nelem, (j+1)*nelem) of every unit's sendbuf,
 * stored in unit order. */
dart_ret_t dart_alltoall(const void* sendbuf, void* recvbuf, size_t nelem, dart_datatype_t dtype,
                         dart_team_t teamid);

/* Unit j sends nsendelem[i] elements from element offset senddispls[i] of
 * sendbuf to unit i, and receives nrecvelem[i] elements from unit i at
 * element offset recvdispls[i] of recvbuf; nsendelem[i] on unit j must equal
 * nrecvelem[j] on unit i. Counts and offsets of any size: beyond INT_MAX
 * elements on some unit, every unit takes one MPI_Alltoallw of byte types
 * instead (one more allreduce). Collective. */
dart_ret_t dart_alltoallv(const void* sendbuf, const size_t* nsendelem, const size_t* senddispls,
                          dart_datatype_t dtype, void* recvbuf, const size_t* nrecvelem,
                          const size_t* recvdispls, dart_team_t teamid);

/* Makes *new_op, an operation for dart_reduce, dart_allreduce and dart_iallreduce over elements
 * of dtype (a basic or custom type, dart_type_create_custom) that calls op(invec, inoutvec, len,
 * userdata) on runs of len elements; commute says whether op is commutative (else units are
 * combined in unit order). The ids of such operations start at DART_OP_LAST. dtype_is_tmp (dtype
 * serves this operation only) is accepted as a hint; the operation keeps working after dtype is
 * destroyed, but reductions name a live type equal to it. DART_ERR_INVAL for a NULL op or
 * new_op or a strided type. Not for atomics or dart_accumulate (MPI allows only its own
 * operations there). Local. */
dart_ret_t dart_op_create(dart_operator_t op, void* userdata, bool commute, dart_datatype_t dtype,
                          bool dtype_is_tmp, dart_operation_t* new_op);

/* Frees an operation made by dart_op_create and sets *op to DART_OP_UNDEFINED. DART_ERR_INVAL
 * for anything else (a predefined operation, one already freed). Local. */
dart_ret_t dart_op_destroy(dart_operation_t* op);

/* Non-blocking barrier; complete with dart_wait/dart_test. */
dart_ret_t dart_ibarrier(dart_team_t teamid, dart_handle_t* handle);

/* Non-blocking allreduce; buffers must stay valid until completion. */
dart_ret_t dart_iallreduce(const void* sendbuf, void* recvbuf, size_t nelem, dart_datatype_t dtype,
                           dart_operation_t op, dart_team_t teamid, dart_handle_t* handle);

/* ---- point-to-point messages (two-sided, over a team) -------------------- */

/* A message matched by dart_improbe/dart_mprobe and not yet received; pass it
 * to dart_mrecv exactly once. */
typedef struct {
  uint64_t opaque_[2];
} dart_message_t;

/* Sends nelem elements of buf to unit (relative to DART_TEAM_ALL) with tag;
 * returns when buf may be reused. Tags range over 0..32767. Two-sided. */
dart_ret_t dart_send(const void* buf, size_t nelem, dart_datatype_t dtype, int tag,
                     dart_global_unit_t unit);

/* Receives nelem elements from unit (relative to DART_TEAM_ALL) with tag;
 * the message must hold exactly nelem elements. Two-sided. */
dart_ret_t dart_recv(void* buf, size_t nelem, dart_datatype_t dtype, int tag,
                     dart_global_unit_t unit);

/* Sends send_nelem elements of sendbuf to dest with send_tag and receives
 * recv_nelem elements from src with recv_tag (units relative to
 * DART_TEAM_ALL), as dart_send and dart_recv together; the send does not
 * wait for the receive, so two units may exchange with each other. Returns
 * when both are done. Two-sided. */
dart_ret_t dart_sendrecv(const void* sendbuf, size_t send_nelem, dart_datatype_t send_dtype,
                         int send_tag, dart_global_unit_t dest, void* recvbuf, size_t recv_nelem,
                         dart_datatype_t recv_dtype, int recv_tag, dart_global_unit_t src);

/* Starts sending nbytes of buf to unit of team with tag; dart_wait/dart_test
 * on *handle complete it (buf must stay valid until then). Any size up to
 * 2^60 bytes (beyond INT_MAX as one element of a derived type of 1 GiB
 * blocks; dart_improbe reports the true size). Two-sided. */
dart_ret_t dart_isend(const void* buf, size_t nbytes, int tag, dart_team_unit_t unit,
                      dart_team_t team, dart_handle_t* handle);

/* As dart_isend, but *handle completes only once the receiver has matched
 * the message (MPI synchronous mode), so a completed send is no longer in
 * flight. Two-sided. */
dart_ret_t dart_issend(const void* buf, size_t nbytes, int tag, dart_team_unit_t unit,
                       dart_team_t team, dart_handle_t* handle);

/* Looks for a message with tag from source (DART_UNDEFINED_TEAM_UNIT_ID: any
 * unit of team). If there is one, *found = 1 and the message is matched:
 * *message names it, *from is its sender and *nbytes its size; no other probe
 * or receive can take it. Otherwise *found = 0. Local. */
dart_ret_t dart_improbe(int tag, dart_team_unit_t source, dart_team_t team, int32_t* found,
                        dart_message_t* message, dart_team_unit_t* from, size_t* nbytes);

/* As dart_improbe, but waits until a message is there (in DART_WAIT's
 * manner). Local. */
dart_ret_t dart_mprobe(int tag, dart_team_unit_t source, dart_team_t team, dart_message_t* message,
                       dart_team_unit_t* from, size_t* nbytes);

/* Receives a matched message into buf, which holds nbytes, at least its
 * size as reported by the probe (less is refused with DART_ERR_INVAL and the
 * message stays matched). Local (the data is already matched). */
dart_ret_t dart_mrecv(void* buf, size_t nbytes, dart_message_t* message);

/* As dart_mrecv, but only starts the receive: dart_wait/dart_test on *handle complete it (buf
 * must stay valid until then), so several matched messages can be received at once. Local. */
dart_ret_t dart_imrecv(void* buf, size_t nbytes, dart_message_t* message, dart_handle_t* handle);

#ifdef __cplusplus
}
#endif

#endif /* DART__DART_COMMUNICATION_H_ */
