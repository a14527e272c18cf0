// dash::ooc::SpillDirectory: the calling unit's private directory for the
// bytes of evicted blocks and queues (out-of-core storage).
//
//   parent = DASH_OOC_DIR, else $TMPDIR, else /tmp
//   check the parent: a directory, writable by us; a symlink only to a
//     directory of ours (or root's); world-writable only with the sticky bit
//   remove the dash-ooc-* directories of ours in the parent whose unit is gone
//   mkdtemp("<parent>/dash-ooc-XXXXXX")                 (mode 0700)
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
#ifndef DASH__OOC__SPILL_DIRECTORY_H_
#define DASH__OOC__SPILL_DIRECTORY_H_

#include <string>
#include <utility>

namespace dash {
namespace ooc {

// Removes the unit's spill directory if it exists (dash::finalize). Local.
void remove_spill_directory() noexcept;

class SpillDirectory {
 public:
  // The unit's directory, made on the first call (InvalidArgument naming
  // the parent and why if it cannot be used). Local.
  static SpillDirectory& instance();
  // Whether the directory exists now (made and not yet removed). Local.
  static bool exists();
  // Absolute path of the directory. Local.
  const std::string& path() const { return path_; }
  // Removes every file in the directory and the directory; the next
  // instance() makes a new one. Local.
  void remove_all() noexcept;

 private:
  explicit SpillDirectory(std::string path) : path_(std::move(path)) {}
  // remove_all with the directory lock held.
  static void remove_locked(SpillDirectory* dir) noexcept;
  friend void remove_spill_directory() noexcept;
  friend void remove_spill_directory_at_exit();
  std::string path_;
};

}  // namespace ooc
}  // namespace dash

#endif  // DASH__OOC__SPILL_DIRECTORY_H_
