// dash::bp::SpillDirectory: the calling unit's private directory for the
// bytes of evicted blocks and queues (the block layer's storage,
// bp/BlockStore.h); the out-of-core layer keeps its local array files in it
// too. The out-of-core layer's old header of the same name still calls
// these dash::ooc::*.
//
//   parent = DASH_OOC_DIR, else $TMPDIR, else /tmp, resolved once (realpath)
//   check every directory of the resolved path, "/" included: owned by us or
//     root, writable by others only with the sticky bit (so no other user can
//     replace it or anything below it); open the parent (O_NOFOLLOW) and make
//     sure it is the directory checked
//   remove the dash-ooc-* directories of ours in the parent whose unit is gone
//   mkdirat(parent, "dash-ooc-<12 random characters>", 0700), opened
//     O_DIRECTORY | O_NOFOLLOW; every file in it is opened, renamed and removed
//     relative to that descriptor (spill_open, spill_rename, spill_unlink)
//     with ".owner": flock-ed by the unit while it lives, "<pid> <host>"
//   removed, files first, by dash::finalize, at normal exit (atexit), on
//   SIGTERM / SIGINT (then the signal's default action runs) and before a
//   DART-initiated MPI_Abort (dart_at_abort); after SIGKILL, by the next
//   unit that makes its spill directory in the same parent (the lock of a
//   dead process is free)
//
// | call        | cost                                                 |
// |-------------|------------------------------------------------------|
// | instance    | local; the first call scans the parent, makes the    |
// |             | directory                                            |
// | path        | local                                                |
// | remove_all  | local; one unlink per file, one rmdir                |
#ifndef DASH__BP__SPILL_DIRECTORY_H_
#define DASH__BP__SPILL_DIRECTORY_H_

#include <sys/types.h>

#include <string>
#include <utility>

namespace dash {
namespace bp {

// Removes the unit's spill directory if it exists (dash::finalize). Local.
void remove_spill_directory() noexcept;

// open(2) of the file `path` of the current spill directory ("<path()>/<name>"), relative to the
// directory's descriptor and never through a symlink (O_NOFOLLOW | O_CLOEXEC added): -1 with errno
// as open's, or EINVAL if path is not a file of the current spill directory. Local.
int spill_open(const std::string& path, int flags, mode_t mode = 0600);
// unlink(2) of such a file, relative to the directory's descriptor. Local.
int spill_unlink(const std::string& path);
// rename(2) of one such file to another name in the directory. Local.
int spill_rename(const std::string& from, const std::string& to);

class SpillDirectory {
 public:
  // The unit's directory, made on the first call (InvalidArgument naming
  // the parent and why if it cannot be used). Local.
  static SpillDirectory& instance();
  // Whether the directory exists now (made and not yet removed). Local.
  static bool exists();
  // Absolute path of the directory (resolved: no symlink in it). Local.
  const std::string& path() const { return path_; }
  // The directory's descriptor, open for the directory's life. Local.
  int fd() const { return fd_; }
  // Removes every file in the directory and the directory; the next
  // instance() makes a new one. Local.
  void remove_all() noexcept;

 private:
  SpillDirectory(std::string path, int fd, int parent_fd)
      : path_(std::move(path)), fd_(fd), parent_fd_(parent_fd) {}
  // remove_all with the directory lock held.
  static void remove_locked(SpillDirectory* dir) noexcept;
  friend void remove_spill_directory() noexcept;
  friend void remove_spill_directory_at_exit();
  std::string path_;
  int fd_, parent_fd_;
};

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__SPILL_DIRECTORY_H_
