// The file of dash::bp::save and dash::bp::load (dash/bp/detail/SavedFile.h).
#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/bp/detail/SavedFile.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "Checksum.h"
#include "SafeFile.h"

namespace dash {
namespace bp {
namespace detail {

namespace {

constexpr char kMagic[8] = {'D', 'A', 'S', 'H', 'B', 'P', '0', '1'};
constexpr std::uint64_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 64;

struct Header {
  char magic[8];
  std::uint64_t version, nblocks, index, reserved, checksum;
  char pad[kHeaderBytes - 48];
};
static_assert(sizeof(Header) == kHeaderBytes, "the header is 64 bytes");
static_assert(sizeof(SavedRecord) == 32, "an index entry is 32 bytes");

std::uint64_t header_checksum(const Header& h) {
  return saved_checksum(reinterpret_cast<const char*>(&h), 40);
}

// DART errors through the one mapping (check_dart), with the file operation as context.
void check(dart_ret_t ret, const std::string& what) {
  if (ret != DART_OK) check_dart(ret, what.c_str());
}

// A failed file operation: out of memory as OutOfMemory, anything else RuntimeError.
void check_file(dart_ret_t ret, const std::string& what) {
  if (ret != DART_OK) dash::internal::throw_dart_failure(ret, what);
}

// Unit 0's outcome of a file-system call, on every unit (an empty text: fine).
std::string on_every_unit(const std::string& mine, int me, dart_team_t team) {
  std::uint64_t n = me == 0 ? mine.size() : 0;
  check(dart_bcast(&n, 1, DART_TYPE_ULONGLONG, dart_team_unit_t{0}, team), "dart_bcast");
  std::string text = me == 0 ? mine : std::string(std::size_t(n), ' ');
  if (n > 0)
    check(dart_bcast(&text[0], n, DART_TYPE_BYTE, dart_team_unit_t{0}, team), "dart_bcast");
  return text;
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

}  // namespace

std::uint64_t saved_checksum(const char* data, std::size_t n) {
  return dash::internal::checksum64(data, n);
}

SavedFileWriter::SavedFileWriter(const std::string& path, dart_team_t team, int nblocks)
    : path_(path), team_(team), nblocks_(nblocks) {
  me_ = my_id(team);
  units_ = unit_count(team);
  // Unit 0 checks the target and makes the temporary (a name nobody can guess or plant).
  std::string refusal, error;
  if (me_ == 0) {
    try {  // a throw here alone would leave the other units waiting in the broadcasts below
      refusal = dash::internal::check_save_target(path);
      if (refusal.empty()) temporary_ = dash::internal::create_temporary(path, error);
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  refusal = on_every_unit(refusal, me_, team);
  if (!refusal.empty()) throw exception::InvalidArgument("dash::bp::save: " + refusal);
  error = on_every_unit(error, me_, team);
  if (!error.empty()) dash::internal::throw_runtime_error("dash::bp::save: " + error);
  temporary_ = on_every_unit(temporary_, me_, team);
  const dart_ret_t created = dart_file_open(temporary_.c_str(), DART_FILE_WRITE, team, &file_);
  if (created != DART_OK) {
    if (me_ == 0) std::remove(temporary_.c_str());
    dash::internal::throw_dart_failure(
        created, "dash::bp::save: cannot create '" + temporary_ + "' (see the log)");
  }
}

SavedFileWriter::~SavedFileWriter() {
  if (file_ == nullptr) return;
  dart_file_close(&file_);
  if (me_ == 0) std::remove(temporary_.c_str());
  dart_barrier(team_);
}

bool SavedFileWriter::write_round(const char* bytes, const std::vector<SavedRecord>& records) {
  std::uint64_t size = 0;
  for (const SavedRecord& r : records) size += r.bytes;
  std::vector<std::uint64_t> sizes(std::size_t(units_), 0);
  check(dart_allgather(&size, sizes.data(), 1, DART_TYPE_ULONGLONG, team_),
        "dash::bp::save: dart_allgather");
  std::uint64_t at = end_, total = 0;
  for (int u = 0; u < units_; ++u) {
    if (u < me_) at += sizes[std::size_t(u)];
    total += sizes[std::size_t(u)];
  }
  check_file(dart_file_write_at_all(file_, at, bytes, std::size_t(size)),
             "dash::bp::save: writing '" + temporary_ + "'");
  for (SavedRecord r : records) {
    r.offset = at;
    at += r.bytes;
    mine_.push_back(r);
  }
  end_ += total;
  int more = records.empty() ? 0 : 1, all = 0;
  check(dart_allreduce(&more, &all, 1, DART_TYPE_INT, DART_OP_MAX, team_),
        "dash::bp::save: dart_allreduce");
  return all != 0;
}

void SavedFileWriter::finish() {
  // The index, in gid order, on unit 0.
  std::vector<SavedRecord> index(static_cast<std::size_t>(nblocks_));
  std::vector<std::uint64_t> flat(std::size_t(nblocks_) * 4, 0), all(flat.size(), 0);
  std::vector<int> seen(std::size_t(nblocks_), 0), seen_all(seen.size(), 0);
  for (const SavedRecord& r : mine_) {
    std::uint64_t* e = &flat[std::size_t(r.gid) * 4];
    e[0] = r.gid, e[1] = r.offset, e[2] = r.bytes, e[3] = r.checksum;
    seen[std::size_t(r.gid)] = 1;
  }
  check(
      dart_allreduce(flat.data(), all.data(), flat.size(), DART_TYPE_ULONGLONG, DART_OP_SUM, team_),
      "dash::bp::save: dart_allreduce");
  check(
      dart_allreduce(seen.data(), seen_all.data(), seen.size(), DART_TYPE_INT, DART_OP_SUM, team_),
      "dash::bp::save: dart_allreduce");
  for (int g = 0; g < nblocks_; ++g)
    if (seen_all[std::size_t(g)] != 1)
      throw exception::InvalidArgument("dash::bp::save: block " + std::to_string(g) +
                                       " is held by " + std::to_string(seen_all[std::size_t(g)]) +
                                       " units, not one: every block must be added before a save");
  std::vector<char> tail;
  Header h{};
  if (me_ == 0) {
    for (int g = 0; g < nblocks_; ++g) {
      const std::uint64_t* e = &all[std::size_t(g) * 4];
      index[std::size_t(g)] = SavedRecord{e[0], e[1], e[2], e[3]};
    }
    tail.resize(index.size() * sizeof(SavedRecord) + 8);
    if (!index.empty()) std::memcpy(tail.data(), index.data(), index.size() * sizeof(SavedRecord));
    const std::uint64_t sum = saved_checksum(tail.data(), index.size() * sizeof(SavedRecord));
    std::memcpy(tail.data() + index.size() * sizeof(SavedRecord), &sum, 8);
    std::memcpy(h.magic, kMagic, 8);
    h.version = kVersion;
    h.nblocks = std::uint64_t(nblocks_);
    h.index = end_;
    h.checksum = header_checksum(h);
  }
  check_file(dart_file_write_at_all(file_, end_, tail.data(), tail.size()),
             "dash::bp::save: writing the index of '" + temporary_ + "'");
  check_file(dart_file_write_at_all(file_, 0, &h, me_ == 0 ? sizeof h : 0),
             "dash::bp::save: writing the header of '" + temporary_ + "'");
  const dart_ret_t closed = dart_file_close(&file_);
  file_ = nullptr;
  if (closed != DART_OK) {
    if (me_ == 0) std::remove(temporary_.c_str());
    dash::internal::throw_dart_failure(
        closed, "dash::bp::save: syncing '" + temporary_ + "' failed (see the log)");
  }
  // The new file replaces the old in one step (the directory synced, so the rename lasts).
  std::string error;
  if (me_ == 0) error = dash::internal::commit_temporary(temporary_, path_);
  error = on_every_unit(error, me_, team_);
  if (!error.empty()) dash::internal::throw_runtime_error("dash::bp::save: " + error);
}

SavedFileReader::SavedFileReader(const std::string& path, dart_team_t team, int nblocks)
    : path_(path) {
  const dart_ret_t opened = dart_file_open(path.c_str(), DART_FILE_READ, team, &file_);
  if (opened == DART_ERR_NOTFOUND)
    dash::internal::throw_runtime_error("dash::bp::load: no file '" + path + "'");
  if (opened == DART_ERR_INVAL)
    dash::internal::throw_runtime_error(
        "dash::bp::load: '" + path + "' is not a regular file (a FIFO, a device or a directory)");
  if (opened != DART_OK)
    dash::internal::throw_dart_failure(opened,
                                       "dash::bp::load: cannot open '" + path + "' (see the log)");
  // Every unit reads the header and the index (the same bytes: the same
  // verdict on every unit).
  std::string wrong;
  Header h{};
  std::uint64_t size = 0;
  std::size_t got = 0;
  if (dart_file_size(file_, &size) != DART_OK ||
      dart_file_read_at(file_, 0, &h, sizeof h, &got) != DART_OK)
    wrong = "cannot read it";
  else if (got < sizeof h || std::memcmp(h.magic, kMagic, 8) != 0)
    wrong = "not a file of dash::bp::save (no header)";
  else if (h.checksum != header_checksum(h))
    wrong = "its header is damaged (checksum)";
  else if (h.version != kVersion)
    wrong = "version " + std::to_string(h.version) + ", expected " + std::to_string(kVersion);
  else if (h.index < kHeaderBytes || h.index > size ||
           h.nblocks > (size - h.index) / sizeof(SavedRecord) ||
           size != h.index + h.nblocks * sizeof(SavedRecord) + 8)
    wrong = "truncated or extended: " + std::to_string(size) + " bytes, the header says " +
            std::to_string(h.index + h.nblocks * sizeof(SavedRecord) + 8);
  if (wrong.empty() && h.nblocks != std::uint64_t(nblocks)) {
    dart_file_close(&file_);
    throw exception::InvalidArgument("dash::bp::load: '" + path + "' holds " +
                                     std::to_string(h.nblocks) + " blocks, the master " +
                                     std::to_string(nblocks));
  }
  if (wrong.empty()) {
    index_.resize(std::size_t(h.nblocks));
    std::vector<char> tail(index_.size() * sizeof(SavedRecord) + 8);
    if (dart_file_read_at(file_, h.index, tail.data(), tail.size(), &got) != DART_OK ||
        got != tail.size()) {
      wrong = "cannot read its index";
    } else {
      std::uint64_t sum = 0;
      std::memcpy(&sum, tail.data() + tail.size() - 8, 8);
      if (sum != saved_checksum(tail.data(), tail.size() - 8))
        wrong = "its index is damaged (checksum)";
      if (!index_.empty()) std::memcpy(index_.data(), tail.data(), tail.size() - 8);
      for (std::size_t g = 0; g < index_.size() && wrong.empty(); ++g) {
        const SavedRecord& r = index_[g];
        if (r.gid != g || r.offset < kHeaderBytes || r.offset > h.index ||
            r.bytes > h.index - r.offset)
          wrong = "its index is damaged (block " + std::to_string(g) + ")";
      }
    }
  }
  if (!wrong.empty()) {
    dart_file_close(&file_);
    dash::internal::throw_runtime_error("dash::bp::load: '" + path + "': " + wrong);
  }
}

SavedFileReader::~SavedFileReader() {
  if (file_ != nullptr) dart_file_close(&file_);
}

void SavedFileReader::read(int gid, MemoryBuffer& into) {
  const SavedRecord& r = index_.at(std::size_t(gid));
  into.clear();
  Bytes& bytes = into.bytes();
  bytes.resize(std::size_t(r.bytes));
  std::size_t got = 0;
  const dart_ret_t read = dart_file_read_at(file_, r.offset, bytes.data(), bytes.size(), &got);
  if (read != DART_OK || got != bytes.size())
    dash::internal::throw_dart_failure(
        read, "dash::bp::load: '" + path_ + "': cannot read block " + std::to_string(gid));
  if (saved_checksum(bytes.data(), bytes.size()) != r.checksum)
    dash::internal::throw_runtime_error("dash::bp::load: '" + path_ + "': block " +
                                        std::to_string(gid) + " is damaged (checksum)");
}

}  // namespace detail
}  // namespace bp
}  // namespace dash
