/* DART file I/O: one file shared by the units of a team (MPI-IO).
 *
 *   dart_file_t f;
 *   dart_file_open("/scratch/run.bin", DART_FILE_WRITE, DART_TEAM_ALL, &f);
 *   dart_file_write_at_all(f, my_offset, my_bytes, my_nbytes);   // every unit
 *   dart_file_close(&f);                                        // synced
 *   dart_file_open("/scratch/run.bin", DART_FILE_READ, DART_TEAM_ALL, &f);
 *   dart_file_read_at(f, offset, buf, nbytes, &nread);          // any unit alone
 *
 * Errors: every collective call agrees on its outcome, so a failure on one
 * unit (a path it cannot create, a full disk) returns the error on every
 * unit, never leaving one waiting; the failing unit logs the MPI error.
 *
 * | call                   | cost                                            |
 * |------------------------|-------------------------------------------------|
 * | dart_file_open         | collective over the team: MPI_File_open and one |
 * |                        | allreduce (write: also truncates the file)      |
 * | dart_file_write_at_all | collective: MPI_File_write_at_all in rounds of  |
 * |                        | at most 1 GiB, one allreduce per call           |
 * | dart_file_read_at      | local (independent I/O)                         |
 * | dart_file_size         | local                                           |
 * | dart_file_close        | collective: MPI_File_sync (write), close        |
 */
#ifndef DART__DART_IO_H_
#define DART__DART_IO_H_

#include <dart/dart_types.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An open file of a team. */
typedef struct dart_file* dart_file_t;

typedef enum {
  DART_FILE_READ = 0,  /* an existing file, read only */
  DART_FILE_WRITE = 1, /* created, or truncated to 0 bytes; write only */
} dart_file_mode_t;

/* Opens path on every unit of team. DART_ERR_NOTFOUND on every unit if a
 * file to read is missing (on any unit), DART_ERR_OTHER if any unit cannot
 * open it (its unit logs why), DART_ERR_INVAL for bad arguments and for a
 * path that is not a regular file (a FIFO, device or directory: refused, never
 * waited on or replaced). Collective over the team. */
dart_ret_t dart_file_open(const char* path, dart_file_mode_t mode, dart_team_t team,
                          dart_file_t* file);

/* Writes nbytes at offset (bytes from the file's start); each unit its own
 * range (nbytes may be 0). DART_ERR_OTHER on every unit if the write failed
 * on any. Collective over the file's team. */
dart_ret_t dart_file_write_at_all(dart_file_t file, uint64_t offset, const void* buf,
                                  size_t nbytes);

/* Reads up to nbytes at offset into buf; *nread tells how many bytes there
 * were (fewer at the end of the file). Local. */
dart_ret_t dart_file_read_at(dart_file_t file, uint64_t offset, void* buf, size_t nbytes,
                             size_t* nread);

/* The file's size in bytes. Local. */
dart_ret_t dart_file_size(dart_file_t file, uint64_t* bytes);

/* Closes the file (a file opened for writing is synced to storage first)
 * and sets *file to NULL. DART_ERR_OTHER on every unit if the sync failed
 * on any. Collective over the file's team. */
dart_ret_t dart_file_close(dart_file_t* file);

#ifdef __cplusplus
}
#endif

#endif /* DART__DART_IO_H_ */
