/* Reduction operations of the program's own (dart_op_create). MPI calls a user operator with
 * its elements and their MPI type but with no pointer of the caller's, so each DART operation
 * reduces over its own duplicate of the element type, and that duplicate carries the operation
 * as an MPI attribute:
 *
 *   dart_op_create(fn, data, dtype):  entry = {fn, data}; type = MPI_Type_dup(dtype's)
 *                                     set_attr(type, key, entry); MPI_Op_create(trampoline)
 *   MPI_Allreduce(..., type, op):     trampoline(in, inout, len, type):
 *                                       entry = get_attr(type, key); entry.fn(in, inout, len, data)
 *
 * so the operator is found in the callback whatever thread or non-blocking collective runs it.
 * Operations get ids DART_OP_LAST + index into a table that grows as needed. */
#include <stdlib.h>

#include "dart_internal.h"

static dart_custom_op_t** custom_ops = NULL;
static size_t custom_capacity = 0;
static int attribute_key = MPI_KEYVAL_INVALID;

/* The MPI operator of every custom operation: finds it on the element type. */
static void trampoline(void* invec, void* inoutvec, int* len, MPI_Datatype* type) {
  dart_custom_op_t* entry = NULL;
  int found = 0;
  if (MPI_Type_get_attr(*type, attribute_key, &entry, &found) != MPI_SUCCESS || !found ||
      entry == NULL) {
    dart__log(DART_LOG_ERROR, "dart_op_create",
              "a custom reduction ran over a type without its operation");
    return;
  }
  entry->fn(invec, inoutvec, (size_t)*len, entry->userdata);
}

const dart_custom_op_t* dart__custom_op(dart_operation_t op) {
  if ((int)op < (int)DART_OP_LAST) return NULL;
  const size_t index = (size_t)((int)op - (int)DART_OP_LAST);
  return index < custom_capacity ? custom_ops[index] : NULL;
}

/* A free slot of the table (grown by doubling), or SIZE_MAX without memory. */
static size_t free_slot(void) {
  for (size_t i = 0; i < custom_capacity; ++i)
    if (custom_ops[i] == NULL) return i;
  const size_t grown = custom_capacity == 0 ? 8 : 2 * custom_capacity;
  dart_custom_op_t** table = realloc(custom_ops, grown * sizeof *table);
  if (table == NULL) return SIZE_MAX;
  for (size_t i = custom_capacity; i < grown; ++i) table[i] = NULL;
  const size_t slot = custom_capacity;
  custom_ops = table;
  custom_capacity = grown;
  return slot;
}

dart_ret_t dart_op_create(dart_operator_t op, void* userdata, bool commute, dart_datatype_t dtype,
                          bool dtype_is_tmp, dart_operation_t* new_op) {
  static const char* call = "dart_op_create";
  (void)dtype_is_tmp; /* every operation has its own type already */
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, op != NULL, "op is NULL");
  DART_CHECK_ARG(call, new_op != NULL, "new_op is NULL");
  const dart_type_info_t* t = dart__type(dtype);
  DART_CHECK_ARG(call, t != NULL && !dart__type_is_layout(t),
                 "data type %ld is not a basic or custom type", (long)dtype);
  if (attribute_key == MPI_KEYVAL_INVALID) {
    int key = MPI_KEYVAL_INVALID;
    DART_MPI_CALL(
        call, MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &key, NULL));
    attribute_key = key;
  }
  const size_t slot = free_slot();
  dart_custom_op_t* entry = slot == SIZE_MAX ? NULL : malloc(sizeof *entry);
  if (entry == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  *entry = (dart_custom_op_t){.fn = op,
                              .userdata = userdata,
                              .dtype = dtype,
                              .size = t->size,
                              .mpi_type = MPI_DATATYPE_NULL,
                              .mpi_op = MPI_OP_NULL};
  int ret = MPI_Type_dup(t->mpi, &entry->mpi_type);
  if (ret == MPI_SUCCESS) ret = MPI_Type_set_attr(entry->mpi_type, attribute_key, entry);
  if (ret == MPI_SUCCESS) ret = MPI_Op_create(trampoline, commute ? 1 : 0, &entry->mpi_op);
  if (ret != MPI_SUCCESS) {
    if (entry->mpi_type != MPI_DATATYPE_NULL) (void)MPI_Type_free(&entry->mpi_type);
    free(entry);
    return dart__mpi_error(ret, call, "MPI_Type_dup / MPI_Op_create");
  }
  custom_ops[slot] = entry;
  *new_op = (dart_operation_t)((int)DART_OP_LAST + (int)slot);
  return DART_OK;
}

dart_ret_t dart_op_destroy(dart_operation_t* op) {
  static const char* call = "dart_op_destroy";
  DART_CHECK_ARG(call, op != NULL, "op is NULL");
  DART_CHECK_ARG(call, dart__custom_op(*op) != NULL,
                 "operation %d was not made by dart_op_create or is freed", (int)*op);
  const size_t index = (size_t)((int)*op - (int)DART_OP_LAST);
  dart_custom_op_t* entry = custom_ops[index];
  int ret = MPI_SUCCESS;
  if (!dart__mpi_finalized()) {
    ret = MPI_Op_free(&entry->mpi_op);
    const int type_ret = MPI_Type_free(&entry->mpi_type);
    if (ret == MPI_SUCCESS) ret = type_ret;
  }
  free(entry); /* the operation is gone for DART either way */
  custom_ops[index] = NULL;
  *op = DART_OP_UNDEFINED;
  return dart__mpi_error(ret, call, "MPI_Op_free / MPI_Type_free");
}

void dart__ops_cleanup(void) {
  for (size_t i = 0; i < custom_capacity; ++i) {
    dart_operation_t op = (dart_operation_t)((int)DART_OP_LAST + (int)i);
    if (custom_ops[i] != NULL) (void)dart_op_destroy(&op);
  }
  free(custom_ops);
  custom_ops = NULL;
  custom_capacity = 0;
  if (attribute_key != MPI_KEYVAL_INVALID && !dart__mpi_finalized())
    (void)MPI_Type_free_keyval(&attribute_key);
  attribute_key = MPI_KEYVAL_INVALID;
}
