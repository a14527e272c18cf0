// The container file of dash::io and its two-phase engine
// (dash/io/detail/ContainerFile.h).
#include <dart/dart.h>
#include <dart/dart_flags.h>
#include <dart/dart_locality.h>
#include <dash/Exception.h>
#include <dash/internal/Failure.h>
#include <dash/io/detail/ContainerFile.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <future>
#include <string>
#include <utility>
#include <vector>

#include "ooc/Checksum.h"

namespace dash {
namespace io {
namespace detail {

namespace {

constexpr char kMagic[8] = {'D', 'A', 'S', 'H', 'I', 'O', '0', '1'};
constexpr std::uint64_t kVersion = 1;
constexpr std::uint64_t kHeaderBytes = 4096;
constexpr std::uint64_t kDefaultBuffer = std::uint64_t(4) << 20;
constexpr std::uint64_t kMaxBuffer = std::uint64_t(1) << 30;
constexpr std::size_t kTypeNameBytes = 64, kPatternBytes = 256;

// The header as it lies in the file's first 4096 bytes (little-endian
// machines; the magic and version say which layout).
struct Header {
  char magic[8];
  std::uint64_t version, header_bytes, element_size, ndim;
  std::uint64_t extents[kMaxFileDims];
  std::uint64_t data_offset, data_bytes, chunk_bytes, nchunks, units;
  char type_name[kTypeNameBytes];
  char pattern[kPatternBytes];
  std::uint64_t checksum;  // of every byte before it
};
static_assert(sizeof(Header) <= kHeaderBytes, "the header fits its 4096 bytes");

std::uint64_t checksum(const void* data, std::size_t n) {
  return dash::ooc::detail::checksum64(static_cast<const char*>(data), n);
}
std::uint64_t header_checksum(const Header& h) { return checksum(&h, offsetof(Header, checksum)); }

std::string errno_text(int e) { return std::strerror(e); }

[[noreturn]] void fail(const std::string& what) { throw exception::RuntimeError(what); }

void check(dart_ret_t ret, const std::string& what) {
  if (ret != DART_OK) dash::check_dart(ret, what.c_str());
}

int my_id(dart_team_t team) {
  dart_team_unit_t me;
  check(dart_team_myid(team, &me), "dart_team_myid");
  return me.id;
}

int unit_count(dart_team_t team) {
  std::size_t n = 0;
  check(dart_team_size(team, &n), "dart_team_size");
  return int(n);
}

// Runs f, keeping its exception (with `context`) in failure.
template <class F>
void captured(dash::internal::Failure& failure, const std::string& context, F&& f) {
  try {
    f();
  } catch (...) {
    failure.capture(context);
  }
}

// pwrite / pread of all n bytes at offset; an error text, empty if fine.
std::string write_all(int fd, const char* data, std::uint64_t n, std::uint64_t offset) {
  while (n > 0) {
    const ssize_t w =
        pwrite(fd, data, std::size_t(std::min<std::uint64_t>(n, 1u << 30)), off_t(offset));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return w < 0 ? errno_text(errno) : "no progress";
    data += w, n -= std::uint64_t(w), offset += std::uint64_t(w);
  }
  return {};
}
std::string read_all(int fd, char* data, std::uint64_t n, std::uint64_t offset) {
  while (n > 0) {
    const ssize_t r =
        pread(fd, data, std::size_t(std::min<std::uint64_t>(n, 1u << 30)), off_t(offset));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return errno_text(errno);
    if (r == 0) return "the file ends early (truncated)";
    data += r, n -= std::uint64_t(r), offset += std::uint64_t(r);
  }
  return {};
}

// DASH_IO_TEST_FAIL_WRITE=n: the n-th chunk write of each aggregator fails
// as if the disk were full (test only).
std::uint64_t test_fail_write() {
  std::uint64_t n = 0;
  char err[DART_FLAG_ERROR_SIZE];
  if (dart_flag_integer("DASH_IO_TEST_FAIL_WRITE", 0, std::uint64_t(1) << 40, &n, err,
                        sizeof err) != DART_OK)
    throw exception::InvalidArgument(err);
  return n;
}

// The data's chunks and who aggregates them.
struct Plan {
  std::uint64_t data_bytes = 0, chunk = 0, nchunks = 0;
  std::vector<int> aggregators;      // team unit ids, ascending
  std::vector<std::uint64_t> first;  // aggregator i: chunks [first[i], first[i + 1])
  int mine = -1;                     // the calling unit's index in aggregators, or -1
  std::uint64_t rounds() const {
    std::uint64_t r = 0;
    for (std::size_t i = 0; i + 1 < first.size(); ++i) r = std::max(r, first[i + 1] - first[i]);
    return r;
  }
  std::uint64_t chunk_end(std::uint64_t c) const { return std::min(data_bytes, (c + 1) * chunk); }
};

// Aggregators: `wanted` of them (0: the first unit of every node), spread
// evenly over the team's units; chunks dealt to them in contiguous domains.
Plan make_plan(dart_team_t team, std::uint64_t data_bytes, std::uint64_t chunk, int wanted) {
  Plan p;
  p.data_bytes = data_bytes;
  p.chunk = chunk;
  p.nchunks = data_bytes == 0 ? 0 : (data_bytes + chunk - 1) / chunk;
  const int units = unit_count(team);
  if (wanted <= 0) {
    std::vector<int> seen;
    for (int u = 0; u < units; ++u) {
      dart_unit_locality_t loc;
      check(dart_unit_locality(team, dart_team_unit_t{u}, &loc), "dart_unit_locality");
      if (std::find(seen.begin(), seen.end(), loc.node) != seen.end()) continue;
      seen.push_back(loc.node);
      p.aggregators.push_back(u);
    }
  } else {
    const int a = std::min(wanted, units);
    for (int i = 0; i < a; ++i) p.aggregators.push_back(int(std::int64_t(i) * units / a));
  }
  const std::uint64_t a = p.aggregators.size();
  for (std::uint64_t i = 0; i <= a; ++i) p.first.push_back(p.nchunks * i / a);
  const int me = my_id(team);
  for (std::size_t i = 0; i < p.aggregators.size(); ++i)
    if (p.aggregators[i] == me) p.mine = int(i);
  return p;
}

// The team's aggregation buffers: two of `chunk` bytes per unit.
struct Buffers {
  dart_gptr_t gptr = DART_GPTR_NULL;
  char* local = nullptr;
  std::uint64_t chunk = 0;
  Buffers(dart_team_t team, std::uint64_t chunk_bytes, const char* who) : chunk(chunk_bytes) {
    check(dart_team_memalloc_aligned(team, std::size_t(2 * chunk), DART_TYPE_BYTE, &gptr),
          std::string(who) + ": allocating the aggregation buffers");
    dart_gptr_t mine = gptr;
    dart_team_unit_t me{my_id(team)};
    dart_gptr_setunit(&mine, me);
    void* addr = nullptr;
    check(dart_gptr_getaddr(mine, &addr), std::string(who) + ": dart_gptr_getaddr");
    local = static_cast<char*>(addr);
  }
  ~Buffers() {
    if (!DART_GPTR_ISNULL(gptr)) dart_team_memfree(gptr);
  }
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;
  // Buffer `which` (0 or 1) of unit `unit`, at byte `at`.
  dart_gptr_t at(int unit, int which, std::uint64_t offset) const {
    dart_gptr_t g = gptr;
    dart_gptr_setunit(&g, dart_team_unit_t{unit});
    dart_gptr_incaddr(&g, std::int64_t(std::uint64_t(which) * chunk + offset));
    return g;
  }
};

// Walks the calling unit's pieces (sorted by offset) chunk by chunk of one
// aggregator's domain: f(piece memory, bytes, offset in the chunk).
class PieceCursor {
 public:
  PieceCursor(const std::vector<Piece>& pieces, std::uint64_t from) : pieces_(&pieces) {
    next_ = std::size_t(std::lower_bound(pieces.begin(), pieces.end(), from,
                                         [](const Piece& p, std::uint64_t at) {
                                           return p.offset + p.bytes <= at;
                                         }) -
                        pieces.begin());
  }
  template <class F>
  void each_in(std::uint64_t begin, std::uint64_t end, F&& f) {
    const std::vector<Piece>& ps = *pieces_;
    while (next_ < ps.size() && ps[next_].offset < end) {
      const Piece& p = ps[next_];
      const std::uint64_t from = std::max(p.offset, begin), to = std::min(p.offset + p.bytes, end);
      if (to > from) f(p.data + (from - p.offset), to - from, from - begin);
      if (p.offset + p.bytes > end) return;  // goes on in the next chunk
      ++next_;
    }
  }

 private:
  const std::vector<Piece>* pieces_;
  std::size_t next_ = 0;
};

void sort_and_check(std::vector<Piece>& pieces, std::uint64_t data_bytes, const char* who) {
  pieces.erase(
      std::remove_if(pieces.begin(), pieces.end(), [](const Piece& p) { return p.bytes == 0; }),
      pieces.end());
  std::sort(pieces.begin(), pieces.end(),
            [](const Piece& a, const Piece& b) { return a.offset < b.offset; });
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (pieces[i].offset > data_bytes || pieces[i].bytes > data_bytes - pieces[i].offset)
      throw exception::InvalidArgument(std::string(who) + ": a piece ends beyond the data (" +
                                       std::to_string(pieces[i].offset + pieces[i].bytes) + " > " +
                                       std::to_string(data_bytes) + " bytes)");
    if (i > 0 && pieces[i - 1].offset + pieces[i - 1].bytes > pieces[i].offset)
      throw exception::InvalidArgument(std::string(who) + ": two pieces overlap at byte " +
                                       std::to_string(pieces[i].offset));
  }
}

// Removes the temporary file unless committed (unit 0).
struct TemporaryFile {
  std::string path;
  bool owner = false;
  ~TemporaryFile() {
    if (owner && !path.empty()) std::remove(path.c_str());
  }
};

std::string parent_directory(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

void copy_text(char* to, std::size_t room, const std::string& text) {
  std::memset(to, 0, room);
  std::memcpy(to, text.data(), std::min(room - 1, text.size()));
}

}  // namespace

std::uint64_t FileLayout::data_bytes() const {
  std::uint64_t n = element_size;
  for (std::uint64_t e : extents) n *= e;
  return n;
}

IoSettings io_settings_from_flags() {
  IoSettings s;
  char err[DART_FLAG_ERROR_SIZE];
  std::uint64_t a = 0, b = 0;
  if (dart_flag_integer("DASH_IO_AGGREGATORS", 0, std::uint64_t(1) << 24, &a, err, sizeof err) !=
          DART_OK ||
      dart_flag_bytes("DASH_IO_BUFFER_SIZE", 4096, kMaxBuffer, &b, err, sizeof err) != DART_OK)
    throw exception::InvalidArgument(err);
  s.aggregators = int(a);
  s.buffer_bytes = b;
  return s;
}

void write_container_file(const std::string& path, dart_team_t team, const FileLayout& layout,
                          std::vector<Piece> pieces, const IoSettings& settings, const char* who) {
  const int me = my_id(team);
  const std::string w(who);
  dash::internal::Failure failure;
  const std::uint64_t data_bytes = layout.data_bytes();
  if (layout.extents.size() > std::size_t(kMaxFileDims) ||
      layout.type_name.size() >= kTypeNameBytes)
    throw exception::InvalidArgument(w + ": more than 8 dimensions, or a type name of 64 bytes");
  captured(failure, "", [&] { sort_and_check(pieces, data_bytes, who); });
  const std::uint64_t buffer = settings.buffer_bytes > 0 ? settings.buffer_bytes : kDefaultBuffer;
  const std::uint64_t chunk = std::max<std::uint64_t>(1, std::min(buffer, data_bytes));
  const std::uint64_t fail_at = test_fail_write();

  // Unit 0 makes the temporary file; the aggregators open it.
  std::uint64_t pid = std::uint64_t(getpid());
  check(dart_bcast(&pid, 1, DART_TYPE_ULONGLONG, dart_team_unit_t{0}, team), w + ": dart_bcast");
  TemporaryFile tmp{path + ".tmp." + std::to_string(pid), me == 0};
  int fd = -1;
  if (me == 0)
    captured(failure, "", [&] {
      fd = open(tmp.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
      if (fd < 0) fail(w + ": cannot create '" + tmp.path + "': " + errno_text(errno));
    });
  dash::internal::agree(failure, team, who);
  Plan plan = make_plan(team, data_bytes, chunk, settings.aggregators);
  if (plan.mine >= 0 && fd < 0)
    captured(failure, "", [&] {
      fd = open(tmp.path.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd < 0) fail(w + ": cannot open '" + tmp.path + "': " + errno_text(errno));
    });
  struct CloseFd {
    int& fd;
    ~CloseFd() {
      if (fd >= 0) close(fd);
    }
  } close_fd{fd};
  dash::internal::agree(failure, team, who);

  // The rounds: pieces into the aggregators' buffers, written behind.
  std::vector<std::uint64_t> sums(std::size_t(plan.nchunks), 0);
  if (plan.nchunks > 0) {
    Buffers buffers(team, chunk, who);
    std::vector<PieceCursor> cursors;
    for (std::size_t i = 0; i < plan.aggregators.size(); ++i)
      cursors.emplace_back(pieces, plan.first[i] * chunk);
    std::future<std::string> writing;
    std::uint64_t writes = 0;
    const std::uint64_t rounds = plan.rounds();
    for (std::uint64_t r = 0; r < rounds; ++r) {
      const int which = int(r % 2);
      captured(failure, "", [&] {
        for (std::size_t i = 0; i < plan.aggregators.size(); ++i) {
          const std::uint64_t c = plan.first[i] + r;
          if (c >= plan.first[i + 1]) continue;
          cursors[i].each_in(c * chunk, plan.chunk_end(c),
                             [&](const char* data, std::uint64_t n, std::uint64_t at) {
                               check(dart_put(buffers.at(plan.aggregators[i], which, at), data, n,
                                              DART_TYPE_BYTE, DART_TYPE_BYTE),
                                     w + ": dart_put");
                             });
        }
        check(dart_flush_all(buffers.gptr), w + ": dart_flush_all");
      });
      if (writing.valid()) {
        const std::string error = writing.get();
        if (!error.empty()) captured(failure, "", [&] { fail(error); });
      }
      check(dart_barrier(team), w + ": dart_barrier");
      if (plan.mine >= 0 && !failure.any()) {
        const std::uint64_t c = plan.first[std::size_t(plan.mine)] + r;
        if (c < plan.first[std::size_t(plan.mine) + 1]) {
          const char* data = buffers.local + std::uint64_t(which) * chunk;
          const std::uint64_t n = plan.chunk_end(c) - c * chunk;
          const bool inject = fail_at > 0 && ++writes == fail_at;
          writing = std::async(std::launch::async, [&, data, n, c, inject] {
            sums[std::size_t(c)] = checksum(data, std::size_t(n));
            std::string error = inject ? errno_text(ENOSPC) + " (DASH_IO_TEST_FAIL_WRITE)"
                                       : write_all(fd, data, n, kHeaderBytes + c * chunk);
            return error.empty()
                       ? error
                       : w + ": writing '" + tmp.path + "' at byte " +
                             std::to_string(kHeaderBytes + c * chunk) + " failed: " + error;
          });
        }
      }
    }
    if (writing.valid()) {
      const std::string error = writing.get();
      if (!error.empty()) captured(failure, "", [&] { fail(error); });
    }
    check(dart_barrier(team), w + ": dart_barrier");  // nobody uses the buffers any more
  }
  if (plan.mine >= 0 && !failure.any())
    captured(failure, "", [&] {
      if (fsync(fd) != 0) fail(w + ": syncing '" + tmp.path + "' failed: " + errno_text(errno));
    });
  dash::internal::agree(failure, team, who);

  // The checksums to unit 0, which writes them and the header and renames.
  std::vector<std::uint64_t> all(sums.size(), 0);
  if (!sums.empty())
    check(dart_reduce(sums.data(), all.data(), sums.size(), DART_TYPE_ULONGLONG, DART_OP_SUM,
                      dart_team_unit_t{0}, team),
          w + ": dart_reduce");
  if (me == 0)
    captured(failure, "", [&] {
      Header h;
      std::memset(&h, 0, sizeof h);
      std::memcpy(h.magic, kMagic, 8);
      h.version = kVersion;
      h.header_bytes = kHeaderBytes;
      h.element_size = layout.element_size;
      h.ndim = layout.extents.size();
      for (std::size_t d = 0; d < layout.extents.size(); ++d) h.extents[d] = layout.extents[d];
      h.data_offset = kHeaderBytes;
      h.data_bytes = data_bytes;
      h.chunk_bytes = chunk;
      h.nchunks = plan.nchunks;
      h.units = std::uint64_t(unit_count(team));
      copy_text(h.type_name, kTypeNameBytes, layout.type_name);
      copy_text(h.pattern, kPatternBytes, layout.pattern);
      h.checksum = header_checksum(h);
      std::vector<char> head(kHeaderBytes, 0);
      std::memcpy(head.data(), &h, sizeof h);
      all.push_back(checksum(all.data(), all.size() * 8));
      std::string error = write_all(fd, head.data(), kHeaderBytes, 0);
      if (error.empty())
        error = write_all(fd, reinterpret_cast<const char*>(all.data()), all.size() * 8,
                          kHeaderBytes + data_bytes);
      if (error.empty() && fsync(fd) != 0) error = errno_text(errno);
      if (!error.empty()) fail(w + ": writing the header of '" + tmp.path + "' failed: " + error);
      close(fd);
      fd = -1;
      if (std::rename(tmp.path.c_str(), path.c_str()) != 0)
        fail(w + ": cannot rename '" + tmp.path + "' to '" + path + "': " + errno_text(errno));
      tmp.owner = false;  // it is the file at path now
      const int dir = open(parent_directory(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (dir >= 0) {
        fsync(dir);  // the rename lasts
        close(dir);
      }
    });
  dash::internal::agree(failure, team, who);
}

namespace {

// Unit 0 reads and checks the header (and the checksum table); every unit
// gets the header and the verdict. Throws on every unit if it is wrong.
Header read_header(const std::string& path, dart_team_t team, const char* who,
                   std::vector<std::uint64_t>* sums) {
  const int me = my_id(team);
  const std::string w(who);
  dash::internal::Failure failure;
  Header h;
  std::memset(&h, 0, sizeof h);
  if (me == 0)
    captured(failure, "", [&] {
      const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) fail(w + ": cannot open '" + path + "': " + errno_text(errno));
      struct CloseFd {
        int fd;
        ~CloseFd() { close(fd); }
      } closer{fd};
      struct stat st;
      if (fstat(fd, &st) != 0) fail(w + ": cannot stat '" + path + "': " + errno_text(errno));
      const std::uint64_t size = std::uint64_t(st.st_size);
      if (size < kHeaderBytes)
        fail(w + ": '" + path + "' is not a file of dash::io::save (" + std::to_string(size) +
             " bytes, no header)");
      const std::string error = read_all(fd, reinterpret_cast<char*>(&h), sizeof h, 0);
      if (!error.empty()) fail(w + ": reading '" + path + "': " + error);
      if (std::memcmp(h.magic, kMagic, 8) != 0)
        fail(w + ": '" + path + "' is not a file of dash::io::save (no header)");
      if (h.checksum != header_checksum(h))
        fail(w + ": the header of '" + path + "' is damaged (checksum)");
      if (h.version != kVersion)
        fail(w + ": '" + path + "' has version " + std::to_string(h.version) + ", expected " +
             std::to_string(kVersion));
      if (h.ndim > std::uint64_t(kMaxFileDims) || h.chunk_bytes == 0 ||
          h.data_offset != kHeaderBytes ||
          h.nchunks != (h.data_bytes + h.chunk_bytes - 1) / h.chunk_bytes)
        fail(w + ": the header of '" + path + "' is inconsistent");
      const std::uint64_t expected = kHeaderBytes + h.data_bytes + 8 * h.nchunks + 8;
      if (size != expected)
        fail(w + ": '" + path + "' is truncated or extended: " + std::to_string(size) +
             " bytes, its header says " + std::to_string(expected));
      if (sums) {
        sums->assign(std::size_t(h.nchunks + 1), 0);
        const std::string e2 = read_all(fd, reinterpret_cast<char*>(sums->data()), 8 * sums->size(),
                                        kHeaderBytes + h.data_bytes);
        if (!e2.empty()) fail(w + ": reading the checksums of '" + path + "': " + e2);
        if (checksum(sums->data(), 8 * h.nchunks) != sums->back())
          fail(w + ": the checksums of '" + path + "' are damaged");
        sums->pop_back();
      }
    });
  dash::internal::agree(failure, team, who);
  check(dart_bcast(&h, sizeof h, DART_TYPE_BYTE, dart_team_unit_t{0}, team), w + ": dart_bcast");
  if (sums) {
    sums->resize(std::size_t(h.nchunks));
    if (!sums->empty())
      check(dart_bcast(sums->data(), sums->size(), DART_TYPE_ULONGLONG, dart_team_unit_t{0}, team),
            w + ": dart_bcast");
  }
  return h;
}

}  // namespace

FileLayout read_container_layout(const std::string& path, dart_team_t team, const char* who) {
  const Header h = read_header(path, team, who, nullptr);
  FileLayout l;
  l.type_name.assign(h.type_name, strnlen(h.type_name, kTypeNameBytes));
  l.pattern.assign(h.pattern, strnlen(h.pattern, kPatternBytes));
  l.element_size = h.element_size;
  l.extents.assign(h.extents, h.extents + h.ndim);
  l.units = h.units;
  return l;
}

void read_container_file(const std::string& path, dart_team_t team, std::vector<Piece> pieces,
                         const IoSettings& settings, const char* who) {
  const std::string w(who);
  std::vector<std::uint64_t> sums;
  const Header h = read_header(path, team, who, &sums);
  dash::internal::Failure failure;
  captured(failure, "", [&] { sort_and_check(pieces, h.data_bytes, who); });
  const std::uint64_t chunk = h.chunk_bytes;
  Plan plan = make_plan(team, h.data_bytes, chunk, settings.aggregators);
  int fd = -1;
  if (plan.mine >= 0)
    captured(failure, "", [&] {
      fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) fail(w + ": cannot open '" + path + "': " + errno_text(errno));
    });
  struct CloseFd {
    int& fd;
    ~CloseFd() {
      if (fd >= 0) close(fd);
    }
  } close_fd{fd};
  dash::internal::agree(failure, team, who);
  if (plan.nchunks > 0) {
    Buffers buffers(team, chunk, who);
    std::vector<PieceCursor> cursors;
    for (std::size_t i = 0; i < plan.aggregators.size(); ++i)
      cursors.emplace_back(pieces, plan.first[i] * chunk);
    const std::uint64_t rounds = plan.rounds();
    // Reads chunk of round r into buffer r % 2 and checks it (an aggregator).
    auto start_read = [&](std::uint64_t r) -> std::future<std::string> {
      if (plan.mine < 0) return {};
      const std::uint64_t c = plan.first[std::size_t(plan.mine)] + r;
      if (c >= plan.first[std::size_t(plan.mine) + 1]) return {};
      char* data = buffers.local + (r % 2) * chunk;
      const std::uint64_t n = plan.chunk_end(c) - c * chunk;
      return std::async(std::launch::async, [&, data, n, c] {
        std::string error = read_all(fd, data, n, kHeaderBytes + c * chunk);
        if (error.empty() && checksum(data, std::size_t(n)) != sums[std::size_t(c)])
          error = "checksum mismatch (the file was changed or damaged)";
        return error.empty()
                   ? error
                   : w + ": '" + path + "', bytes " + std::to_string(kHeaderBytes + c * chunk) +
                         " to " + std::to_string(kHeaderBytes + c * chunk + n) + ": " + error;
      });
    };
    std::future<std::string> reading = start_read(0);
    for (std::uint64_t r = 0; r < rounds; ++r) {
      if (reading.valid()) {
        const std::string error = reading.get();
        if (!error.empty()) captured(failure, "", [&] { fail(error); });
      }
      check(dart_barrier(team), w + ": dart_barrier");
      if (r + 1 < rounds) reading = start_read(r + 1);
      const int which = int(r % 2);
      captured(failure, "", [&] {
        for (std::size_t i = 0; i < plan.aggregators.size(); ++i) {
          const std::uint64_t c = plan.first[i] + r;
          if (c >= plan.first[i + 1]) continue;
          cursors[i].each_in(c * chunk, plan.chunk_end(c),
                             [&](char* data, std::uint64_t n, std::uint64_t at) {
                               check(dart_get(data, buffers.at(plan.aggregators[i], which, at), n,
                                              DART_TYPE_BYTE, DART_TYPE_BYTE),
                                     w + ": dart_get");
                             });
        }
        check(dart_flush_all(buffers.gptr), w + ": dart_flush_all");
      });
    }
    if (reading.valid()) reading.get();
    check(dart_barrier(team), w + ": dart_barrier");  // every get done before the buffers go
  }
  dash::internal::agree(failure, team, who);
}

}  // namespace detail
}  // namespace io
}  // namespace dash
