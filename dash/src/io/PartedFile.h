// dash::io's logical files (not public): one plain file, or, with
// subfiling, parts that each hold a contiguous range of the logical file,
// listed by a small text table (the "subfile table") at the file's path:
//
//   DASHSUB1
//   size <bytes of the logical file>
//   part <offset> <bytes> <file name, in the table's directory>
//   ...                                  (in offset order, no gaps)
//   sum <hex checksum of the lines above>
//
// Parts are named "<name>.part.<pid>.<host>.<hex>.<k>" after the write's temporary (SafeFile.h:
// unit 0's pid and host, 16 random hex digits; k six digits or more), so a new write never
// touches the parts of the file it replaces, and the parts of a write killed on the way are
// recognised (by the next write to the path on that host) and removed; renaming the table into
// place switches to the new parts at once, and the old parts go afterwards. Tables of earlier
// versions (parts "<name>.<hex>.<k>") read as before.
#ifndef DASH__SRC__IO__PARTED_FILE_H_
#define DASH__SRC__IO__PARTED_FILE_H_

#include <dart/dart_types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace dash {
namespace io {
namespace internal {

// One part: logical bytes [offset, offset + bytes) at byte 0 of file `path`.
struct FilePart {
  std::uint64_t offset = 0, bytes = 0;
  std::string path;
};

// Reads and writes at logical offsets, each piece in its part's file; a
// part's file is opened on first use (with open_flags) and closed with the
// object. Not thread-safe: one caller at a time.
class PartedFile {
 public:
  PartedFile() = default;
  PartedFile(std::vector<FilePart> parts, int open_flags);
  ~PartedFile();
  PartedFile(const PartedFile&) = delete;
  PartedFile& operator=(const PartedFile&) = delete;

  // "" or what went wrong (naming the part's file when there are several).
  // Local: pwrite / pread per part touched.
  std::string write(const char* data, std::uint64_t n, std::uint64_t offset);
  std::string read(char* data, std::uint64_t n, std::uint64_t offset);
  // Opens every part (creating it, with O_CREAT in the flags) and gives it
  // its full size where it is shorter (the rest reads as zeros). Local.
  std::string extend_all();
  // fsync of every part opened so far. Local.
  std::string sync();
  // Closes every open part. Local.
  void close_all();
  // Closes every open part and takes other parts. Local.
  void reset(std::vector<FilePart> parts, int open_flags);
  const std::vector<FilePart>& parts() const { return parts_; }
  // Bytes of the logical file (the end of the last part).
  std::uint64_t size() const;

 private:
  // The descriptor of part k (opened now if need be), or -1 with error set.
  int fd_of(std::size_t k, std::string& error);
  template <class F>
  std::string each_part(std::uint64_t n, std::uint64_t offset, F&& f);

  std::vector<FilePart> parts_;
  std::vector<int> fds_;
  int flags_ = 0;
};

// The subfile table of parts (their paths reduced to file names). Local.
std::string subfile_table(const std::vector<FilePart>& parts);

// Whether text begins like a subfile table. Local.
bool is_subfile_table(const std::string& text);

// Parses a subfile table read from `path`; the parts' paths are made
// relative to path's directory. RuntimeError naming path if the table is
// damaged or malformed. Local.
std::vector<FilePart> parse_subfile_table(const std::string& text, const std::string& path);

// The logical file at path: its parts (one, path itself, for a plain file).
// Unit 0 reads it (and checks that every part has its size) and tells the
// others; RuntimeError on every unit for a missing file, a damaged table or
// a missing or truncated part. Collective over team.
std::vector<FilePart> describe_file(const std::string& path, dart_team_t team, const char* who);

// Parts "<stem>.<k>" of a new file: part k holds [bounds[k], bounds[k + 1]) (bounds ascending,
// first 0, last the size; empty parts dropped). Local.
std::vector<FilePart> new_parts(const std::string& stem, const std::vector<std::uint64_t>& bounds);

// The parts the file at path lists if it is a subfile table (readable and
// whole), else none: what replacing or removing it must remove too. Local.
std::vector<FilePart> table_parts(const std::string& path);

}  // namespace internal
}  // namespace io
}  // namespace dash

#endif  // DASH__SRC__IO__PARTED_FILE_H_
