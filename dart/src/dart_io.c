/* Files shared by a team (dart_io.h): MPI-IO on a duplicate of the team's
 * communicator, each collective call ending with an agreement on its
 * outcome. */
#include <dart/dart_io.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dart_internal.h"

struct dart_file {
  MPI_File fh;
  MPI_Comm comm; /* a duplicate of the team's */
  dart_team_t team;
  dart_file_mode_t mode;
};

/* Bytes per MPI call: counts are ints. */
#define DART_FILE_CHUNK ((size_t)1 << 30)

/* Agrees on ok over the file's team: true only if it is true on every unit.
 * Returns an MPI error code. */
static int agree(MPI_Comm comm, int* ok) {
  int mine = *ok;
  return MPI_Allreduce(&mine, ok, 1, MPI_INT, MPI_LAND, comm);
}

dart_ret_t dart_file_open(const char* path, dart_file_mode_t mode, dart_team_t teamid,
                          dart_file_t* file) {
  static const char* call = "dart_file_open";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, file != NULL, "file is NULL");
  *file = NULL;
  DART_CHECK_ARG(call, path != NULL && path[0] != '\0', "no path");
  DART_CHECK_ARG(call, mode == DART_FILE_READ || mode == DART_FILE_WRITE, "mode %d", (int)mode);
  dart_team_data_t* team = dart__team_checked(call, teamid);
  if (team == NULL) return DART_ERR_INVAL;
  struct dart_file* f = calloc(1, sizeof *f);
  int ok = f != NULL;
  if (f != NULL) {
    f->fh = MPI_FILE_NULL;
    f->comm = MPI_COMM_NULL;
    f->team = teamid;
    f->mode = mode;
  }
  /* Every unit takes part in every collective below, even after a failure. */
  MPI_Comm comm = MPI_COMM_NULL;
  const int dup_ret = MPI_Comm_dup(team->comm, &comm);
  if (dup_ret != MPI_SUCCESS) {
    free(f); /* error path: nothing else was made yet */
    return dart__mpi_error(dup_ret, call, "MPI_Comm_dup");
  }
  if (f != NULL) f->comm = comm;
  /* A FIFO, a device or a directory: refused on every unit before MPI-IO could block on it or
   * replace it; the lowest unit that sees it says so. */
  int rank = 0;
  const int rank_ret = MPI_Comm_rank(comm, &rank);
  if (rank_ret != MPI_SUCCESS) {
    dart__mpi_error(rank_ret, call, "MPI_Comm_rank");
    ok = 0; /* agreed below, after the collectives every unit takes part in */
    rank = 0;
  }
  struct stat st;
  const int special = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
  int first_special = special ? rank : INT_MAX;
  const int special_ret = MPI_Allreduce(MPI_IN_PLACE, &first_special, 1, MPI_INT, MPI_MIN, comm);
  if (special_ret != MPI_SUCCESS) {
    (void)MPI_Comm_free(&comm); /* error path: the Allreduce's failure is returned */
    free(f);
    return dart__mpi_error(special_ret, call, "MPI_Allreduce");
  }
  if (first_special != INT_MAX) {
    if (rank == first_special)
      dart__log(DART_LOG_ERROR, call, "'%s' is %s, not a regular file", path,
                S_ISDIR(st.st_mode)    ? "a directory"
                : S_ISFIFO(st.st_mode) ? "a FIFO"
                : S_ISCHR(st.st_mode)  ? "a character device"
                : S_ISBLK(st.st_mode)  ? "a block device"
                                       : "a socket");
    (void)MPI_Comm_free(&comm); /* error path: DART_ERR_INVAL is returned */
    free(f);
    return DART_ERR_INVAL;
  }
  const int amode = mode == DART_FILE_WRITE ? (MPI_MODE_CREATE | MPI_MODE_WRONLY) : MPI_MODE_RDONLY;
  MPI_File fh = MPI_FILE_NULL;
  int ret = MPI_File_open(comm, path, amode, MPI_INFO_NULL, &fh);
  int missing = 0;
  if (ret != MPI_SUCCESS) {
    int cls = 0;
    (void)MPI_Error_class(ret, &cls); /* on a failure cls stays 0: a plain open error below */
    missing = mode == DART_FILE_READ && cls == MPI_ERR_NO_SUCH_FILE;
    if (!missing) {
      char text[MPI_MAX_ERROR_STRING];
      int length = 0;
      if (MPI_Error_string(ret, text, &length) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error code %d", ret);
      dart__log(DART_LOG_ERROR, call, "cannot open '%s' for %s: %s", path,
                mode == DART_FILE_WRITE ? "writing" : "reading", text);
    }
    ok = 0;
  }
  int all_ok = ok;
  int any_missing = missing;
  if (agree(comm, &all_ok) != MPI_SUCCESS ||
      MPI_Allreduce(MPI_IN_PLACE, &any_missing, 1, MPI_INT, MPI_LOR, comm) != MPI_SUCCESS)
    all_ok = 0;
  if (all_ok && mode == DART_FILE_WRITE) {
    ret = MPI_File_set_size(fh, 0); /* collective */
    int truncated = ret == MPI_SUCCESS;
    if (!truncated) dart__mpi_error(ret, call, "MPI_File_set_size(0)");
    if (agree(comm, &truncated) != MPI_SUCCESS || !truncated) all_ok = 0;
  }
  if (!all_ok) {
    /* error path: the agreed error below is returned */
    if (fh != MPI_FILE_NULL) (void)MPI_File_close(&fh); /* opened everywhere, or nowhere */
    (void)MPI_Comm_free(&comm);
    free(f);
    if (any_missing) {
      if (missing) dart__log(DART_LOG_ERROR, call, "no file '%s'", path);
      return DART_ERR_NOTFOUND;
    }
    if (f == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
    return DART_ERR_OTHER;
  }
  f->fh = fh;
  *file = f;
  return DART_OK;
}

dart_ret_t dart_file_write_at_all(dart_file_t file, uint64_t offset, const void* buf,
                                  size_t nbytes) {
  static const char* call = "dart_file_write_at_all";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, file != NULL, "file is NULL");
  DART_CHECK_ARG(call, file->mode == DART_FILE_WRITE, "the file was opened for reading");
  DART_CHECK_ARG(call, buf != NULL || nbytes == 0, "buf is NULL");
  /* Rounds of at most DART_FILE_CHUNK bytes; every unit takes part in as
   * many rounds as the unit with the most bytes. */
  long long rounds = (long long)((nbytes + DART_FILE_CHUNK - 1) / DART_FILE_CHUNK);
  DART_MPI_CALL(call, MPI_Allreduce(MPI_IN_PLACE, &rounds, 1, MPI_LONG_LONG, MPI_MAX, file->comm));
  int ok = 1;
  for (long long r = 0; r < rounds; ++r) {
    const size_t first = (size_t)r * DART_FILE_CHUNK;
    const size_t n =
        first >= nbytes ? 0 : (nbytes - first < DART_FILE_CHUNK ? nbytes - first : DART_FILE_CHUNK);
    const char* from = n > 0 ? (const char*)buf + first : NULL;
    MPI_Status status;
    int ret = MPI_File_write_at_all(file->fh, (MPI_Offset)(offset + first), from, (int)n, MPI_BYTE,
                                    &status);
    if (ret != MPI_SUCCESS) {
      if (ok) dart__mpi_error(ret, call, "MPI_File_write_at_all");
      ok = 0;
      continue;
    }
    int written = 0;
    ret = MPI_Get_count(&status, MPI_BYTE, &written);
    if (ret != MPI_SUCCESS) {
      if (ok) dart__mpi_error(ret, call, "MPI_Get_count");
      ok = 0;
    } else if ((size_t)written != n && ok) {
      dart__log(DART_LOG_ERROR, call, "wrote %d of %zu bytes at offset %llu", written, n,
                (unsigned long long)(offset + first));
      ok = 0;
    }
  }
  DART_MPI_CALL(call, agree(file->comm, &ok));
  return ok ? DART_OK : DART_ERR_OTHER;
}

dart_ret_t dart_file_read_at(dart_file_t file, uint64_t offset, void* buf, size_t nbytes,
                             size_t* nread) {
  static const char* call = "dart_file_read_at";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, file != NULL, "file is NULL");
  DART_CHECK_ARG(call, file->mode == DART_FILE_READ, "the file was opened for writing");
  DART_CHECK_ARG(call, buf != NULL || nbytes == 0, "buf is NULL");
  DART_CHECK_ARG(call, nread != NULL, "nread is NULL");
  *nread = 0;
  while (*nread < nbytes) {
    const size_t n = nbytes - *nread < DART_FILE_CHUNK ? nbytes - *nread : DART_FILE_CHUNK;
    MPI_Status status;
    DART_MPI_CALL(call, MPI_File_read_at(file->fh, (MPI_Offset)(offset + *nread),
                                         (char*)buf + *nread, (int)n, MPI_BYTE, &status));
    int got = 0;
    DART_MPI_CALL(call, MPI_Get_count(&status, MPI_BYTE, &got));
    *nread += (size_t)got;
    if ((size_t)got < n) break; /* the end of the file */
  }
  return DART_OK;
}

dart_ret_t dart_file_size(dart_file_t file, uint64_t* bytes) {
  static const char* call = "dart_file_size";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, file != NULL, "file is NULL");
  DART_CHECK_ARG(call, bytes != NULL, "bytes is NULL");
  MPI_Offset size = 0;
  DART_MPI_CALL(call, MPI_File_get_size(file->fh, &size));
  *bytes = (uint64_t)size;
  return DART_OK;
}

dart_ret_t dart_file_close(dart_file_t* file) {
  static const char* call = "dart_file_close";
  DART_CHECK_INIT(call);
  DART_CHECK_ARG(call, file != NULL && *file != NULL, "file is NULL");
  struct dart_file* f = *file;
  *file = NULL;
  int ok = 1;
  if (f->mode == DART_FILE_WRITE) {
    const int ret = MPI_File_sync(f->fh); /* collective */
    if (ret != MPI_SUCCESS) {
      dart__mpi_error(ret, call, "MPI_File_sync");
      ok = 0;
    }
  }
  int ret = MPI_File_close(&f->fh);
  if (ret != MPI_SUCCESS) {
    if (ok) dart__mpi_error(ret, call, "MPI_File_close");
    ok = 0;
  }
  ret = agree(f->comm, &ok);
  /* After the agreement every unit returns its outcome: a failed free only leaks the comm. */
  (void)MPI_Comm_free(&f->comm);
  free(f);
  if (ret != MPI_SUCCESS) return dart__mpi_error(ret, call, "MPI_Allreduce");
  return ok ? DART_OK : DART_ERR_OTHER;
}
