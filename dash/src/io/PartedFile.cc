// dash::io's logical files and subfile tables (PartedFile.h).
#include "io/PartedFile.h"

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/internal/Failure.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <sstream>
#include <utility>

#include "SafeFile.h"
#include "io/TwoPhase.h"

namespace dash {
namespace io {
namespace internal {

namespace {

constexpr char kTableMagic[] = "DASHSUB1\n";
constexpr std::size_t kMaxTableBytes = std::size_t(16) << 20;

}  // namespace

PartedFile::PartedFile(std::vector<FilePart> parts, int open_flags)
    : parts_(std::move(parts)), fds_(parts_.size(), -1), flags_(open_flags) {}

PartedFile::~PartedFile() { close_all(); }

void PartedFile::close_all() {
  for (int& fd : fds_)
    if (fd >= 0) close(fd), fd = -1;
}

void PartedFile::reset(std::vector<FilePart> parts, int open_flags) {
  close_all();
  parts_ = std::move(parts);
  fds_.assign(parts_.size(), -1);
  flags_ = open_flags;
}

std::uint64_t PartedFile::size() const {
  return parts_.empty() ? 0 : parts_.back().offset + parts_.back().bytes;
}

int PartedFile::fd_of(std::size_t k, std::string& error) {
  if (parts_[k].path.empty()) {  // a node-local copy on another unit's node
    error = "bytes " + std::to_string(parts_[k].offset) + " to " +
            std::to_string(parts_[k].offset + parts_[k].bytes) + " lie on another unit's node";
    return -1;
  }
  if (fds_[k] < 0) {
    // Files written are never reached through a symlink (their names are unguessable too).
    const int nofollow = (flags_ & (O_WRONLY | O_RDWR)) != 0 ? O_NOFOLLOW : 0;
    fds_[k] = open(parts_[k].path.c_str(), flags_ | nofollow | O_CLOEXEC, 0666);
    if (fds_[k] < 0) error = "cannot open '" + parts_[k].path + "': " + errno_text(errno);
  }
  return fds_[k];
}

template <class F>
std::string PartedFile::each_part(std::uint64_t n, std::uint64_t offset, F&& f) {
  // The first part that ends after offset (parts are in offset order).
  std::size_t k = std::size_t(
      std::upper_bound(parts_.begin(), parts_.end(), offset,
                       [](std::uint64_t x, const FilePart& p) { return x < p.offset + p.bytes; }) -
      parts_.begin());
  std::uint64_t done = 0;
  for (; n > done && k < parts_.size(); ++k) {
    const FilePart& p = parts_[k];
    const std::uint64_t at = offset + done - p.offset;
    const std::uint64_t len = std::min(n - done, p.bytes - at);
    std::string error;
    const int fd = fd_of(k, error);
    if (fd >= 0) error = f(fd, done, len, at);
    if (!error.empty())
      return parts_.size() > 1 && fd >= 0 ? error + " (part '" + p.path + "')" : error;
    done += len;
  }
  return n > done ? "beyond the end of the file" : "";
}

std::string PartedFile::write(const char* data, std::uint64_t n, std::uint64_t offset) {
  return each_part(n, offset, [&](int fd, std::uint64_t done, std::uint64_t len, std::uint64_t at) {
    return write_all(fd, data + done, len, at);
  });
}

std::string PartedFile::read(char* data, std::uint64_t n, std::uint64_t offset) {
  return each_part(n, offset, [&](int fd, std::uint64_t done, std::uint64_t len, std::uint64_t at) {
    return read_all(fd, data + done, len, at);
  });
}

std::string PartedFile::extend_all() {
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    std::string error;
    const int fd = fd_of(k, error);
    if (fd < 0) return error;
    struct stat st;
    if (fstat(fd, &st) != 0) return "cannot stat '" + parts_[k].path + "': " + errno_text(errno);
    if (std::uint64_t(st.st_size) < parts_[k].bytes && ftruncate(fd, off_t(parts_[k].bytes)) != 0)
      return "cannot extend '" + parts_[k].path + "': " + errno_text(errno);
  }
  return {};
}

std::string PartedFile::sync() {
  for (std::size_t k = 0; k < fds_.size(); ++k)
    if (fds_[k] >= 0 && fsync(fds_[k]) != 0)
      return "syncing '" + parts_[k].path + "' failed: " + errno_text(errno);
  return {};
}

std::string subfile_table(const std::vector<FilePart>& parts) {
  std::uint64_t size = parts.empty() ? 0 : parts.back().offset + parts.back().bytes;
  std::string text = std::string(kTableMagic) + "size " + std::to_string(size) + "\n";
  for (const FilePart& p : parts)
    text += "part " + std::to_string(p.offset) + " " + std::to_string(p.bytes) + " " +
            dash::internal::file_name(p.path) + "\n";
  return text + "sum " + dash::internal::hex_digits(io_checksum(text.data(), text.size())) + "\n";
}

bool is_subfile_table(const std::string& text) {
  return text.compare(0, sizeof kTableMagic - 1, kTableMagic) == 0;
}

std::vector<FilePart> parse_subfile_table(const std::string& text, const std::string& path) {
  auto bad = [&](const std::string& what) -> std::vector<FilePart> {
    throw exception::RuntimeError("the subfile table '" + path + "' is damaged: " + what);
  };
  const std::size_t sum_at = text.rfind("sum ");
  if (!is_subfile_table(text) || sum_at == std::string::npos) return bad("no checksum line");
  if (text.substr(sum_at) !=
      "sum " + dash::internal::hex_digits(io_checksum(text.data(), sum_at)) + "\n")
    return bad("checksum mismatch");
  std::istringstream in(text.substr(sizeof kTableMagic - 1, sum_at - (sizeof kTableMagic - 1)));
  std::string word, name;
  std::uint64_t size = 0, offset = 0, bytes = 0;
  if (!(in >> word >> size) || word != "size") return bad("no size line");
  std::vector<FilePart> parts;
  const std::string directory = dash::internal::directory_of(path);
  while (in >> word >> offset >> bytes >> name) {
    const std::uint64_t expected = parts.empty() ? 0 : parts.back().offset + parts.back().bytes;
    if (word != "part" || offset != expected || name.find('/') != std::string::npos)
      return bad("part " + std::to_string(parts.size()) + " is malformed");
    parts.push_back({offset, bytes, directory + "/" + name});
  }
  if (!in.eof() || parts.empty() || parts.back().offset + parts.back().bytes != size)
    return bad("the parts do not make up its size");
  return parts;
}

std::vector<FilePart> describe_file(const std::string& path, dart_team_t team, const char* who) {
  const std::string w(who);
  std::string text;  // unit 0: the table, or "" for a plain file
  std::uint64_t plain_size = 0;
  dash::internal::Failure failure;
  if (team_myid(team) == 0)
    captured(failure, [&] {
      std::string why;
      int fd = dash::internal::open_regular_for_reading(path, why);  // a FIFO: refused, no wait
      if (fd < 0) throw exception::RuntimeError(w + ": " + why);
      FdCloser closer{fd};
      struct stat st;
      if (fstat(fd, &st) != 0)
        throw exception::RuntimeError(w + ": cannot stat '" + path + "': " + errno_text(errno));
      plain_size = std::uint64_t(st.st_size);
      std::string head(std::min<std::uint64_t>(plain_size, sizeof kTableMagic - 1), '\0');
      if (!read_all(fd, head.data(), head.size(), 0).empty() || !is_subfile_table(head)) return;
      if (plain_size > kMaxTableBytes)
        throw exception::RuntimeError(w + ": the subfile table '" + path + "' is too large");
      text.resize(std::size_t(plain_size));
      const std::string error = read_all(fd, text.data(), text.size(), 0);
      if (!error.empty()) throw exception::RuntimeError(w + ": reading '" + path + "': " + error);
      try {
        for (const FilePart& p : parse_subfile_table(text, path)) {
          struct stat ps;
          if (stat(p.path.c_str(), &ps) != 0)
            throw exception::RuntimeError("part '" + p.path + "': " + errno_text(errno));
          if (std::uint64_t(ps.st_size) != p.bytes)
            throw exception::RuntimeError("part '" + p.path + "' has " +
                                          std::to_string(ps.st_size) + " bytes, the table says " +
                                          std::to_string(p.bytes) + " (truncated or replaced)");
        }
      } catch (const exception::RuntimeError& e) {
        throw exception::RuntimeError(w + ": " + e.what());
      }
    });
  dash::internal::agree(failure, team, who);
  std::uint64_t sizes[2] = {plain_size, text.size()};
  check_io(dart_bcast(sizes, 2, DART_TYPE_ULONGLONG, dart_team_unit_t{0}, team),
           w + ": dart_bcast");
  if (sizes[1] == 0) return {FilePart{0, sizes[0], path}};
  text.resize(std::size_t(sizes[1]));
  check_io(dart_bcast(text.data(), text.size(), DART_TYPE_BYTE, dart_team_unit_t{0}, team),
           w + ": dart_bcast");
  return parse_subfile_table(text, path);
}

std::vector<FilePart> table_parts(const std::string& path) {
  std::string why;
  int fd = dash::internal::open_regular_for_reading(path, why);
  if (fd < 0) return {};
  FdCloser closer{fd};
  struct stat st;
  if (fstat(fd, &st) != 0 || std::uint64_t(st.st_size) > kMaxTableBytes) return {};
  std::string text(std::size_t(st.st_size), '\0');
  if (!read_all(fd, text.data(), text.size(), 0).empty() || !is_subfile_table(text)) return {};
  try {
    return parse_subfile_table(text, path);
  } catch (const std::exception&) {
    return {};
  }
}

std::vector<FilePart> new_parts(const std::string& stem, const std::vector<std::uint64_t>& bounds) {
  std::vector<FilePart> parts;
  for (std::size_t k = 0; k + 1 < bounds.size(); ++k) {
    if (bounds[k + 1] <= bounds[k]) continue;
    char number[24];  // six digits at least: `ls` and globs list the parts in order
    std::snprintf(number, sizeof number, "%06zu", parts.size());
    parts.push_back({bounds[k], bounds[k + 1] - bounds[k], stem + "." + number});
  }
  return parts;
}

}  // namespace internal
}  // namespace io
}  // namespace dash
