/* Log lines and MPI error translation. */
#include <stdarg.h>
#include <stdio.h>

#include "dart_internal.h"

static const char* const level_names[] = {"ERROR", "WARN", "INFO", "DEBUG"};

void dart__log(dart_log_level_t level, const char* call, const char* fmt, ...) {
  if (level > dart__state.config.log_level) return;
  char message[512];
  va_list args;
  va_start(args, fmt);
  vsnprintf(message, sizeof message, fmt, args);
  va_end(args);
  if (dart__state.initialized) {
    fprintf(stderr, "[dart unit %d] %s %s: %s\n", dart__state.myid, level_names[level], call,
            message);
  } else {
    fprintf(stderr, "[dart] %s %s: %s\n", level_names[level], call, message);
  }
}

dart_ret_t dart__mpi_error(int mpi_ret, const char* call, const char* mpi_call) {
  if (mpi_ret == MPI_SUCCESS) return DART_OK;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(mpi_ret, text, &length) != MPI_SUCCESS) {
    snprintf(text, sizeof text, "MPI error code %d", mpi_ret);
  }
  dart__log(DART_LOG_ERROR, call, "%s failed: %s", mpi_call, text);
  return DART_ERR_OTHER;
}
