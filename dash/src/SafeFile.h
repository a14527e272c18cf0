// Files that dash::io::save and dash::bp::save write, made safe against other local users and
// against the caller's own mistakes (dash/src/SafeFile.cc).
//
//   check_save_target(path)     the target is a new name or a regular file of the caller's, in a
//                               directory that no other user can rearrange behind our back
//   create_temporary(path)      "<path>.tmp.<pid>.<host>.<16 random hex digits>", created with
//                               O_CREAT | O_EXCL | O_NOFOLLOW: a name nobody can guess or plant
//   ... write the temporary (other units open it with O_NOFOLLOW) ...
//   commit_temporary(tmp, path) checks the target again, renames, syncs the directory
//
// A subfiled save names its parts "<path>.part.<pid>.<host>.<hex>.<k>" after its temporary
// (parts_stem), so they too say which process wrote them.
//
// A save killed with SIGKILL leaves its temporary (and parts); remove_stale_temporaries (called by
// create_temporary) and remove_stale_parts remove those of processes of this host that are gone.
// Only unit 0's host can tell whether that process is gone: files of a save whose unit 0 ran on
// another host stay until a save to the same path runs there.
//
// | call                     | cost                                                       |
// |--------------------------|------------------------------------------------------------|
// | check_save_target        | local: two lstat                                           |
// | create_temporary         | local: one directory scan, one open                       |
// | commit_temporary         | local: lstat, rename, fsync of the directory              |
// | open_regular_for_reading | local: open (never blocks on a FIFO), fstat                |
#ifndef DASH__SRC__SAFE_FILE_H_
#define DASH__SRC__SAFE_FILE_H_

#include <dash/io/internal/SaveTarget.h>  // check_save_target

#include <cstdint>
#include <string>
#include <vector>

namespace dash {
namespace internal {

// Creates an empty temporary file for path in path's directory, with an unguessable name, and
// returns its path; "" and the reason in `error` if it cannot. Local.
std::string create_temporary(const std::string& path, std::string& error);

// Removes the temporaries of saves to path that processes of this host left when they died
// (owned by the caller, regular files, their pid gone). Local: one directory scan.
void remove_stale_temporaries(const std::string& path);

// "<path>.part.<pid>.<host>.<hex>" for the temporary "<path>.tmp.<pid>.<host>.<hex>" that
// create_temporary made: the stem of the parts of that save ("<stem>.<k>"). Local.
std::string parts_stem(const std::string& temporary, const std::string& path);

// Removes the parts ("<stem>.<k>" of a parts_stem) of saves to path that processes of this host
// left when they died, but those whose file names are in `keep` (the parts of the file now at
// path). Local: one directory scan.
void remove_stale_parts(const std::string& path, const std::vector<std::string>& keep);

// Replaces path by the temporary (after check_save_target again) and syncs the directory so the
// rename lasts. Returns "" or why it failed (the temporary is then removed). Local.
std::string commit_temporary(const std::string& temporary, const std::string& path);

// Opens path for reading if it is a regular file (following symlinks); never blocks on a FIFO.
// Returns the descriptor, or -1 with the reason in `error`. Local.
int open_regular_for_reading(const std::string& path, std::string& error);

// 64 random bits from the kernel (getrandom). Local.
std::uint64_t random_bits();

// v as 16 lower-case hex digits. Local.
std::string hex_digits(std::uint64_t v);

// The directory part of path ("." for a bare name, "/" for the root). Local.
std::string directory_of(const std::string& path);

// The last component of path (all of it for a bare name). Local.
std::string file_name(const std::string& path);

}  // namespace internal
}  // namespace dash

#endif  // DASH__SRC__SAFE_FILE_H_
