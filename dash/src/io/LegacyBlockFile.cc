// Reading dash::bp::save's earlier files (LegacyBlockFile.h).
#include "io/LegacyBlockFile.h"

#include <dart/dart.h>
#include <dash/Exception.h>

#include <cstring>
#include <string>

#include "Checksum.h"

namespace dash {
namespace io {
namespace internal {

namespace {

constexpr std::uint64_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 64;

struct Header {
  char magic[8];
  std::uint64_t version, nblocks, index, reserved, checksum;
  char pad[kHeaderBytes - 48];
};
static_assert(sizeof(Header) == kHeaderBytes, "the header is 64 bytes");
static_assert(sizeof(LegacyBlockRecord) == 32, "an index entry is 32 bytes");

std::uint64_t checksum(const char* data, std::size_t n) {
  return dash::internal::checksum64(data, n);
}

}  // namespace

LegacyBlockFile::LegacyBlockFile(const std::string& path, dart_team_t team, int nblocks,
                                 const char* who)
    : path_(path), who_(who) {
  const std::string w(who);
  const dart_ret_t opened = dart_file_open(path.c_str(), DART_FILE_READ, team, &file_);
  if (opened != DART_OK) {
    file_ = nullptr;
    dash::internal::throw_dart_failure(opened, w + ": cannot open '" + path + "' (see the log)");
  }
  std::string wrong;
  Header h{};
  std::uint64_t size = 0;
  std::size_t got = 0;
  if (dart_file_size(file_, &size) != DART_OK ||
      dart_file_read_at(file_, 0, &h, sizeof h, &got) != DART_OK)
    wrong = "cannot read it";
  else if (got < sizeof h || std::memcmp(h.magic, kLegacyBlockMagic, 8) != 0)
    wrong = "not a file of dash::bp::save (no header)";
  else if (h.checksum != checksum(reinterpret_cast<const char*>(&h), 40))
    wrong = "its header is damaged (checksum)";
  else if (h.version != kVersion)
    wrong = "version " + std::to_string(h.version) + ", expected " + std::to_string(kVersion);
  else if (h.index < kHeaderBytes || h.index > size ||
           h.nblocks > (size - h.index) / sizeof(LegacyBlockRecord) ||
           size != h.index + h.nblocks * sizeof(LegacyBlockRecord) + 8)
    wrong = "truncated or extended: " + std::to_string(size) + " bytes, the header says " +
            std::to_string(h.index + h.nblocks * sizeof(LegacyBlockRecord) + 8);
  if (wrong.empty() && h.nblocks != std::uint64_t(nblocks)) {
    dart_file_close(&file_);
    throw exception::InvalidArgument(w + ": '" + path + "' holds " + std::to_string(h.nblocks) +
                                     " blocks, the master " + std::to_string(nblocks));
  }
  if (wrong.empty()) {
    index_.resize(std::size_t(h.nblocks));
    std::vector<char> tail(index_.size() * sizeof(LegacyBlockRecord) + 8);
    if (dart_file_read_at(file_, h.index, tail.data(), tail.size(), &got) != DART_OK ||
        got != tail.size()) {
      wrong = "cannot read its index";
    } else {
      std::uint64_t sum = 0;
      std::memcpy(&sum, tail.data() + tail.size() - 8, 8);
      if (sum != checksum(tail.data(), tail.size() - 8)) wrong = "its index is damaged (checksum)";
      if (!index_.empty()) std::memcpy(index_.data(), tail.data(), tail.size() - 8);
      for (std::size_t g = 0; g < index_.size() && wrong.empty(); ++g) {
        const LegacyBlockRecord& r = index_[g];
        if (r.gid != g || r.offset < kHeaderBytes || r.offset > h.index ||
            r.bytes > h.index - r.offset)
          wrong = "its index is damaged (block " + std::to_string(g) + ")";
      }
    }
  }
  if (!wrong.empty()) {
    dart_file_close(&file_);
    dash::internal::throw_runtime_error(w + ": '" + path + "': " + wrong);
  }
}

LegacyBlockFile::~LegacyBlockFile() {
  if (file_ != nullptr) (void)dart_file_close(&file_);  // read only: nothing to lose
}

void LegacyBlockFile::read(int gid, dash::bp::MemoryBuffer& into) {
  const LegacyBlockRecord& r = record(gid);
  into.clear();
  dash::bp::Bytes& bytes = into.bytes();
  bytes.resize(std::size_t(r.bytes));
  std::size_t got = 0;
  const dart_ret_t read = dart_file_read_at(file_, r.offset, bytes.data(), bytes.size(), &got);
  if (read != DART_OK || got != bytes.size())
    dash::internal::throw_dart_failure(
        read, who_ + ": '" + path_ + "': cannot read block " + std::to_string(gid));
  if (checksum(bytes.data(), bytes.size()) != r.checksum)
    dash::internal::throw_runtime_error(who_ + ": '" + path_ + "': block " + std::to_string(gid) +
                                        " is damaged (checksum)");
}

}  // namespace internal
}  // namespace io
}  // namespace dash
