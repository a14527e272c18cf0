// dash::bp::BlockStore and the spill directory: bytes come back as they
// went in, damaged files and full disks are reported with the path and the
// key, nothing is lost or left behind, unsafe directories are refused.
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/bp/BlockStore.h>
#include <dash/bp/SpillDirectory.h>
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../../dash/src/Checksum.h"          // white-box: the files' checksums
#include "../../dash/src/bp/store/Storage.h"  // white-box: the bytes stored (the quota's count)
#include "mpi_test.h"
#include "peak_memory.h"

namespace {

using dash::bp::BlockStore;
using dash::bp::Bytes;
using dash::bp::SpillDirectory;
using dash_test::myid;

Bytes Pattern(std::uint64_t key, std::size_t n) {
  Bytes b;
  b.resize(n);
  std::mt19937_64 random(key * 7919 + n);
  for (std::size_t i = 0; i < n; ++i) b.data()[i] = char(random());
  return b;
}

bool Same(const Bytes& a, const Bytes& b) {
  return a.size() == b.size() && (a.size() == 0 || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

// The names of the files in dir: every file, or those that are neither the directory's lock
// file (".owner") nor the stores' extents file ("blocks"): none should be.
enum class Which { all, other };
std::vector<std::string> Files(const std::string& dir, Which which = Which::all) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      if (which == Which::other && (name == ".owner" || name == "blocks")) continue;
      names.push_back(name);
    }
    closedir(d);
  }
  return names;
}

// Nothing of the stores is on disk but free extents: no other file, no stored bytes.
void ExpectNothingStored(const std::string& dir) {
  EXPECT_TRUE(Files(dir, Which::other).empty());
  EXPECT_EQ(dash::bp::stored_disk_bytes(), 0u);
}

// Changes the byte at `at` of the unit's extents file (xor mask).
void FlipByte(const std::string& path, std::uint64_t at, char mask = 0x40) {
  const int fd = open(path.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  char c;
  ASSERT_EQ(pread(fd, &c, 1, off_t(at)), 1);
  c = char(c ^ mask);
  ASSERT_EQ(pwrite(fd, &c, 1, off_t(at)), 1);
  close(fd);
}

// The size of the file at path (0 if it does not exist).
std::uint64_t FileSize(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? std::uint64_t(st.st_size) : 0;
}

// Sets (or with nullptr unsets) an environment flag for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) {
      had_ = true;
      old_ = old;
    }
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (had_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

TEST(OocStore, RoundTrip_ManySizes) {
  BlockStore store("roundtrip");
  const std::vector<std::size_t> sizes = {0, 1, 7, 4095, 4096, 4097, 65537, (1u << 20) + 13};
  for (std::size_t k = 0; k < sizes.size(); ++k) store.put(k, Pattern(k, sizes[k]));
  store.flush();
  for (std::size_t k = 0; k < sizes.size(); k += 2) store.prefetch(k);  // half prefetched
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    EXPECT_TRUE(store.contains(k));
    const Bytes b = store.take(k);
    EXPECT_TRUE(Same(b, Pattern(k, sizes[k]))) << "size " << sizes[k];
    EXPECT_FALSE(store.contains(k));
  }
  const auto stats = store.stats();
  std::uint64_t total = 0;
  for (std::size_t n : sizes) total += n;
  EXPECT_EQ(stats.bytes_written, total);
  EXPECT_EQ(stats.bytes_read, total);
  EXPECT_EQ(stats.files_written, sizes.size());
  ExpectNothingStored(SpillDirectory::instance().path());
  EXPECT_THROW(store.take(0), dash::exception::InvalidArgument);
}

// A prefetch cancelled while reading or after: the key stays, and a take reads it again
// (the cancelled read's buffer is recycled).
TEST(OocStore, CancelledPrefetch_KeyStaysAndReadsAgain) {
  BlockStore store("cancel");
  const std::size_t n = (std::size_t(1) << 20) + 5;
  for (std::uint64_t k = 0; k < 4; ++k) store.put(k, Pattern(k, n));
  store.flush();
  store.prefetch(0);
  store.cancel_prefetch(0);  // most likely still reading
  store.prefetch(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  store.cancel_prefetch(1);  // most likely read
  store.prefetch(2);
  store.cancel_prefetch(2);
  store.prefetch(2);         // wanted again
  store.cancel_prefetch(3);  // never prefetched: nothing
  for (std::uint64_t k = 0; k < 4; ++k) {
    EXPECT_TRUE(store.contains(k));
    EXPECT_TRUE(Same(store.take(k), Pattern(k, n))) << "key " << k;
  }
  EXPECT_EQ(store.stats().bytes_read, 4 * n);
  store.cancel_prefetch(0);  // taken: nothing
}

// Buffers of the store go back to the system when dropped, not to the
// process's buffer stock (whose buffers would stay resident beside the
// memory an out-of-core limit allows).
TEST(OocStore, Buffer_DroppedGoesBackToTheSystem) {
  BlockStore store("drop");
  const std::size_t n = std::size_t(3) << 20;
  const Bytes pattern = Pattern(1, n);  // the test's own buffer: outlives the check
  const std::size_t before = dash::bp::internal::BufferStock::kept_bytes();
  { Bytes dropped = store.buffer(n); }
  {
    Bytes b = store.buffer(n);
    std::memcpy(b.data(), pattern.data(), n);
    store.put(1, std::move(b));
    store.flush();
    EXPECT_TRUE(Same(store.take(1), pattern));
  }
  EXPECT_EQ(dash::bp::internal::BufferStock::kept_bytes(), before);
}

// A store's buffer that the caller outgrows (a block saved larger than last time into the
// store's recycled memory) grows with its bytes, at sizes on and off whole huge pages.
TEST(OocStore, Buffer_GrowsWithItsBytes) {
  BlockStore store("grow");
  const std::size_t mib = std::size_t(1) << 20;
  for (const std::size_t n : {std::size_t(100000), mib + 13, 4 * mib + mib / 2, 6 * mib}) {
    Bytes b = store.buffer(n);
    const Bytes pattern = Pattern(n, n);
    std::memcpy(b.data(), pattern.data(), n);
    const std::size_t grown = 2 * b.capacity() + 7;
    b.resize(grown);
    ASSERT_EQ(b.size(), grown);
    EXPECT_EQ(std::memcmp(b.data(), pattern.data(), n), 0) << "size " << n;
    store.put(1, std::move(b));
    store.flush();
    Bytes back = store.take(1);
    EXPECT_EQ(std::memcmp(back.data(), pattern.data(), n), 0) << "size " << n;
  }
}

// buffer(n): n bytes to fill, page aligned with room for the file's padding
// and trailer (so an O_DIRECT store writes them in place), whatever the
// size; put and taken back intact.
TEST(OocStore, Buffer_AlignedWithRoomAndRoundTrips) {
  BlockStore store("buffer");
  const std::vector<std::size_t> sizes = {0, 1, 4064, 4065, 4096, (1u << 20) + 13};
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    Bytes b = store.buffer(sizes[k]);
    ASSERT_EQ(b.size(), sizes[k]);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % 4096, 0u) << "size " << sizes[k];
    const std::size_t room = (sizes[k] + 32 + 4095) / 4096 * 4096;  // padded bytes + trailer
    EXPECT_GE(b.capacity(), room) << "size " << sizes[k];
    const Bytes pattern = Pattern(k, sizes[k]);
    if (sizes[k] > 0) std::memcpy(b.data(), pattern.data(), sizes[k]);
    store.put(k, std::move(b));
  }
  store.flush();
  for (std::size_t k = 0; k < sizes.size(); ++k)
    EXPECT_TRUE(Same(store.take(k), Pattern(k, sizes[k]))) << "size " << sizes[k];
}

// The checksum of saved container files (dash::io, dash::bp::save): its values are
// pinned, so a build that computed another (a vectorised clone, say) could not read files an
// earlier one wrote.
TEST(OocStore, Checksum_ValuesPinned) {
  const std::pair<std::size_t, std::uint64_t> cases[] = {{0, 0x36a8fb6adc5741f8ull},
                                                         {5, 0xa183a4ca4731fc21ull},
                                                         {31, 0x4b039ebc78df3716ull},
                                                         {32, 0xba9ed290afca10c4ull},
                                                         {100003, 0x60322c585d775748ull}};
  for (const auto& [n, expected] : cases) {
    SCOPED_TRACE(n);
    std::vector<char> bytes(n);
    for (std::size_t i = 0; i < n; ++i) bytes[i] = char(i * 131 + 7);
    EXPECT_EQ(dash::internal::checksum64(bytes.data(), n), expected);
  }
}

// A spill file ends in a trailer (magic, key, size, checksum); the checksum is
// spill_checksum's (files the process reads back itself), and any one flipped bit changes
// it: in each of its three lanes, at their edges, in the last word and in the bytes after it.
TEST(OocStore, SpillChecksum_InTheTrailer_ChangesWithAnyBit) {
  ScopedEnv direct("DASH_OOC_DIRECT", nullptr);
  BlockStore store("spill-checksum");
  for (const std::size_t n :
       {std::size_t(0), std::size_t(5), std::size_t(31), std::size_t(32), std::size_t(100003)}) {
    SCOPED_TRACE(n);
    std::vector<char> bytes(n);
    for (std::size_t i = 0; i < n; ++i) bytes[i] = char(i * 131 + 7);
    Bytes b;
    b.resize(n);
    if (n > 0) std::memcpy(b.data(), bytes.data(), n);
    store.put(n, std::move(b));
    store.flush();
    const int fd = open(store.path_of(n).c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    std::uint64_t trailer[4] = {};
    ASSERT_EQ(pread(fd, trailer, sizeof trailer, off_t(store.offset_of(n) + n)),
              ssize_t(sizeof trailer));
    close(fd);
    EXPECT_EQ(trailer[2], n);
    const std::uint64_t sum = dash::internal::spill_checksum(bytes.data(), n);
    EXPECT_EQ(trailer[3], sum);
    store.erase(n);
    const std::size_t stripe = n / 24 * 8;
    for (const std::size_t at : {std::size_t(0), stripe - 1, stripe, 2 * stripe - 1, 2 * stripe,
                                 3 * stripe - 1, 3 * stripe, n - 9, n - 8, n - 1}) {
      if (at >= n) continue;
      for (const int bit : {0, 7}) {
        bytes[at] = char(bytes[at] ^ (1 << bit));
        EXPECT_NE(dash::internal::spill_checksum(bytes.data(), n), sum)
            << "byte " << at << " bit " << bit;
        bytes[at] = char(bytes[at] ^ (1 << bit));
      }
    }
  }
  // Runs of zeros of different lengths differ.
  const std::vector<char> zeros(100, 0);
  std::vector<std::uint64_t> sums;
  for (std::size_t n = 0; n <= zeros.size(); ++n)
    sums.push_back(dash::internal::spill_checksum(zeros.data(), n));
  std::sort(sums.begin(), sums.end());
  EXPECT_EQ(std::adjacent_find(sums.begin(), sums.end()), sums.end());
}

// The VmFlags line of the mapping in /proc/self/smaps that holds `at`
// (empty if none): "hg" among them means madvise(MADV_HUGEPAGE).
std::string VmFlagsOf(const void* at) {
  std::ifstream smaps("/proc/self/smaps");
  const auto address = reinterpret_cast<std::uintptr_t>(at);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long long from = 0, to = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> from >> dash >> to && dash == '-' && line.find(':') > line.find(' ')) {
      inside = from <= address && address < to;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

// Buffers of 2 MiB and more (what blocks and slabs are read into and
// written from) are 2 MiB-aligned, their whole 2 MiB pages advised to be
// huge pages (an O_DIRECT request into them spans few segments; docs/flags.md,
// DASH_OOC_HUGE_PAGES), with no more room than page padding asks; from 1 to 2
// MiB, half of a huge page (the next test).
TEST(OocStore, Buffer_LargeOnesAreAdvisedHugePages) {
  ScopedEnv huge("DASH_OOC_HUGE_PAGES", nullptr);  // the default: on
  if (access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) != 0)
    GTEST_SKIP() << "this kernel has no transparent huge pages (madvise refuses the advice)";
  BlockStore store("huge");
  constexpr std::size_t kHuge = std::size_t(2) << 20;
  for (std::size_t n : {kHuge / 2, kHuge, 5 * kHuge + 1}) {
    SCOPED_TRACE(n);
    Bytes b = store.buffer(n);
    const auto at = reinterpret_cast<std::uintptr_t>(b.data());
    const std::size_t room = (n + 32 + 4095) / 4096 * 4096;  // padded bytes + trailer
    EXPECT_GE(b.capacity(), room);
    EXPECT_LE(b.capacity(), 2 * room);
    if (room < kHuge)  // half a huge page: it starts or ends in its middle
      EXPECT_TRUE(at % kHuge == kHuge / 2 || (at + b.capacity()) % kHuge == kHuge / 2) << at;
    else
      EXPECT_EQ(at % kHuge, 0u);
    const std::string flags = VmFlagsOf(b.data());
    ASSERT_FALSE(flags.empty()) << "no mapping in /proc/self/smaps holds the buffer";
    EXPECT_NE((flags + " ").find(" hg "), std::string::npos) << flags;
    const Bytes pattern = Pattern(n, n);
    std::memcpy(b.data(), pattern.data(), n);
    store.put(n, std::move(b));
    store.flush();
    EXPECT_TRUE(Same(store.take(n), pattern));
  }
  // Smaller buffers stay page-aligned, not rounded up to a huge page.
  Bytes small = store.buffer(100000);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(small.data()) % 4096, 0u);
  EXPECT_LT(small.capacity(), std::size_t(1) << 20);
}

// Buffers of 1 to 2 MiB (a block of 1 MiB with its trailer) share huge pages in pairs: two
// live ones hold the two halves of one huge page (what passes 1 MiB on 4 KiB pages before and
// after it), so both together cost their own bytes, not two huge pages. Their bytes stay
// apart; released and taken again in either order they round-trip.
TEST(OocStore, Buffer_OneToTwoMiB_ShareAHugePageInPairs) {
  ScopedEnv huge("DASH_OOC_HUGE_PAGES", nullptr);  // the default: on
  BlockStore store("pairs");
  constexpr std::size_t kHuge = std::size_t(2) << 20;
  const std::size_t n = (std::size_t(1) << 20) + 13;  // room: 1 MiB + 4 KiB
  const long before = dash_test::AnonymousResidentBytes();
  Bytes bufs[2] = {store.buffer(n), store.buffer(n)};
  Bytes pats[2] = {Pattern(1, n), Pattern(2, n)};
  for (int k : {0, 1}) std::memcpy(bufs[k].data(), pats[k].data(), n);
  const long added = dash_test::AnonymousResidentBytes() - before;
  // One ends where the other starts, in the middle of a huge page.
  const int low = bufs[0].data() < bufs[1].data() ? 0 : 1;
  EXPECT_EQ(bufs[low].data() + bufs[low].capacity(), bufs[1 - low].data());
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(bufs[1 - low].data()) % kHuge, kHuge / 2);
  // Two huge pages were 4 MiB; a pair is 2 MiB and two 4 KiB tails (MPI's threads may add a
  // little).
  EXPECT_LE(added, long(kHuge + (std::size_t(512) << 10))) << "bytes added for two buffers";
  for (int k : {0, 1}) EXPECT_TRUE(Same(bufs[k], pats[k]));
  // Released one at a time (written through the store) and taken again: the other keeps its
  // bytes, the written ones come back.
  for (int round = 0; round < 4; ++round) {
    const int k = round % 2;
    store.put(std::uint64_t(10 + round), std::move(bufs[k]));
    store.flush();
    bufs[k] = store.buffer(n);
    Bytes written = std::move(pats[k]);
    pats[k] = Pattern(std::uint64_t(3 + round), n);
    std::memcpy(bufs[k].data(), pats[k].data(), n);
    EXPECT_TRUE(Same(bufs[1 - k], pats[1 - k])) << "round " << round;
    EXPECT_TRUE(Same(store.take(std::uint64_t(10 + round)), written)) << "round " << round;
  }
  for (int k : {0, 1}) EXPECT_TRUE(Same(bufs[k], pats[k]));
}

TEST(OocStore, PutReplacesErasesDrops) {
  BlockStore store("replace");
  store.put(5, Pattern(1, 1000));
  store.put(5, Pattern(2, 3000));  // replaces
  store.put(6, Pattern(3, 10));
  store.erase(6);
  store.erase(99);  // not there: nothing happens
  store.flush();
  EXPECT_FALSE(store.contains(6));
  EXPECT_TRUE(Same(store.take(5), Pattern(2, 3000)));
  // A take right after a put may find the bytes still queued: same bytes.
  for (std::uint64_t k = 0; k < 50; ++k) store.put(k, Pattern(k, 100 + k));
  for (std::uint64_t k = 0; k < 50; ++k) EXPECT_TRUE(Same(store.take(k), Pattern(k, 100 + k)));
}

TEST(OocStore, PermissionsArePrivate) {
  BlockStore store("perm");
  store.put(1, Pattern(1, 100));
  store.flush();
  struct stat st;
  ASSERT_EQ(stat(SpillDirectory::instance().path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(stat(store.path_of(1).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(OocStore, DamagedFiles_ReportedWithPathAndKey) {
  ScopedEnv direct("DASH_OOC_DIRECT", nullptr);
  dash::bp::remove_spill_directory();  // a new extents file: keys 1, 2, 3 one after the other
  BlockStore store("damage");
  store.put(1, Pattern(1, 5000));
  store.put(2, Pattern(2, 5000));
  store.put(3, Pattern(3, 5000));
  store.flush();
  ASSERT_LT(store.offset_of(2), store.offset_of(3));
  FlipByte(store.path_of(1), store.offset_of(1) + 100);          // a byte of the payload
  FlipByte(store.path_of(2), store.offset_of(2) + 5000 + 3, 1);  // the trailer's magic
  ASSERT_EQ(truncate(store.path_of(3).c_str(), off_t(store.offset_of(3) + 1000)), 0);  // cut
  for (std::uint64_t k : {1, 2, 3}) {
    try {
      store.take(k);
      ADD_FAILURE() << "key " << k << ": no exception";
    } catch (const dash::exception::RuntimeError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(store.path_of(k)), std::string::npos) << what;
      EXPECT_NE(what.find("key " + std::to_string(k)), std::string::npos) << what;
      EXPECT_NE(what.find(k == 1   ? "checksum"
                          : k == 2 ? "trailer"
                                   : "truncated"),
                std::string::npos)
          << what;
    }
  }
  ExpectNothingStored(SpillDirectory::instance().path());
  // Whoever asks for a damaged key next (another thread, a retry) hears of the damage too, not
  // of a missing key; a new put of the key starts afresh.
  for (std::uint64_t k : {1, 2}) {
    bool kept = false;
    for (int how = 0; how < 2; ++how) {
      try {
        if (how == 0)
          store.take(k);
        else
          store.read(k, kept);
        ADD_FAILURE() << "key " << k << ": no exception";
      } catch (const dash::exception::RuntimeError& e) {
        EXPECT_NE(std::string(e.what()).find(store.path_of(k)), std::string::npos) << e.what();
      }
    }
  }
  store.put(1, Pattern(1, 300));
  EXPECT_TRUE(Same(store.take(1), Pattern(1, 300)));
  EXPECT_THROW(store.take(1), dash::exception::InvalidArgument);
}

// Keys' extents are reused: a freed extent serves the next put that fits (best fit, the rest
// stays free), freed neighbours merge, so the file grows to the most bytes stored at once (in
// whole pages), not with the bytes ever written; a damaged extent is freed too.
TEST(OocStore, Extents_ReusedMergedAndBounded) {
  ScopedEnv direct("DASH_OOC_DIRECT", nullptr);
  dash::bp::remove_spill_directory();  // a new extents file
  BlockStore store("extents");
  const std::string dir = SpillDirectory::instance().path();
  store.put(1, Pattern(1, 100000));
  store.flush();
  const std::uint64_t first = store.offset_of(1);
  EXPECT_EQ(first, 0u);
  EXPECT_TRUE(Same(store.take(1), Pattern(1, 100000)));
  ExpectNothingStored(dir);
  // Same size, then smaller: the freed extent; then larger than it: at the end of the file.
  for (std::size_t n : {std::size_t(100000), std::size_t(10)}) {
    SCOPED_TRACE(n);
    store.put(2, Pattern(n, n));
    store.flush();
    EXPECT_EQ(store.offset_of(2), first);
    EXPECT_TRUE(Same(store.take(2), Pattern(n, n)));
  }
  store.put(2, Pattern(3, 300001));
  EXPECT_EQ(store.offset_of(2), 102400u) << "after the 25 pages of the first extent";
  EXPECT_TRUE(Same(store.take(2), Pattern(3, 300001)));
  // A damaged extent is freed and reused.
  store.put(4, Pattern(4, 5000));
  store.flush();
  const std::uint64_t at = store.offset_of(4);
  FlipByte(store.path_of(4), at + 10);
  EXPECT_THROW(store.take(4), dash::exception::RuntimeError);
  store.put(5, Pattern(5, 5000));
  EXPECT_EQ(store.offset_of(5), at);
  EXPECT_TRUE(Same(store.take(5), Pattern(5, 5000)));
  // Many keys of a page each, taken in an order of their own: the freed pages merge into one
  // extent that a key of all their bytes fits in; the file never grows past them.
  const std::uint64_t size = FileSize(store.path_of(5));
  constexpr std::uint64_t kMany = 4100;
  for (std::uint64_t k = 10; k < 10 + kMany; ++k) store.put(k, Pattern(k, 1));
  store.flush();
  EXPECT_LE(FileSize(store.path_of(10)), std::max<std::uint64_t>(size, kMany * 4096));
  for (std::uint64_t k = 10 + kMany; k-- > 10;) {
    if (k % 3 == 0) {
      ASSERT_TRUE(Same(store.take(k), Pattern(k, 1)));
    }
  }
  for (std::uint64_t k = 10; k < 10 + kMany; ++k) {
    if (k % 3 != 0) {
      ASSERT_TRUE(Same(store.take(k), Pattern(k, 1)));
    }
  }
  ExpectNothingStored(dir);
  store.put(6, Pattern(6, kMany * 4096 - 32));
  store.flush();
  EXPECT_EQ(store.offset_of(6), 0u);
  EXPECT_LE(FileSize(store.path_of(6)), kMany * 4096) << "the file did not grow";
  EXPECT_TRUE(Same(store.take(6), Pattern(6, kMany * 4096 - 32)));
  dash::bp::remove_spill_directory();
  EXPECT_TRUE(Files(dir).empty()) << "the extents file goes with the directory";
}

TEST(OocStore, Quota_RefusesAndStaysUsable) {
  ScopedEnv quota("DASH_OOC_MAX_BYTES", "64K");
  BlockStore store("quota");
  store.put(1, Pattern(1, 40000));
  try {
    store.put(2, Pattern(2, 40000));
    ADD_FAILURE() << "no exception";
  } catch (const dash::exception::RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("DASH_OOC_MAX_BYTES=65536"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(Same(store.take(1), Pattern(1, 40000)));
  store.put(2, Pattern(2, 40000));  // room again: the spent file of key 1 goes first
  EXPECT_TRUE(Same(store.take(2), Pattern(2, 40000)));
  store.put(3, Pattern(3, 20000));  // 20 KB in the freed 40 KB extent: its rest stays held
  store.put(4, Pattern(4, 30000));  // the held rest is given back (a hole) to make room
  store.flush();
  struct stat st;
  ASSERT_EQ(stat(store.path_of(3).c_str(), &st), 0);
  EXPECT_LE(std::uint64_t(st.st_blocks) * 512, 65536u) << "the file's disk blocks, holes apart";
  EXPECT_TRUE(Same(store.take(3), Pattern(3, 20000)));
  EXPECT_TRUE(Same(store.take(4), Pattern(4, 30000)));
}

// read() keeps the file (until a put or erase of the key, or a put that
// needs the room under DASH_OOC_MAX_BYTES); put_kept() makes it the key's
// stored bytes again, which are then never dropped for room.
TEST(OocStore, Read_KeepsTheFileUntilReplacedOrNeeded) {
  ScopedEnv quota("DASH_OOC_MAX_BYTES", "100K");  // two files of 40 KB fit, three do not
  BlockStore store("read");
  store.put(1, Pattern(1, 40000));
  store.flush();
  bool kept = false;
  EXPECT_TRUE(Same(store.read(1, kept), Pattern(1, 40000)));
  EXPECT_TRUE(kept);
  EXPECT_TRUE(store.contains(1));
  store.prefetch(1);  // read again, prefetched: the same bytes, still kept
  EXPECT_TRUE(Same(store.read(1, kept), Pattern(1, 40000)));
  EXPECT_TRUE(kept);
  EXPECT_TRUE(store.put_kept(1));
  EXPECT_EQ(store.stats().bytes_read, 80000u);
  EXPECT_EQ(store.stats().files_written, 1u);

  store.put(2, Pattern(2, 40000));
  store.flush();
  EXPECT_THROW(store.put(3, Pattern(3, 40000)), dash::exception::RuntimeError)
      << "key 1's file is its stored bytes again: not dropped for room";
  EXPECT_TRUE(Same(store.read(2, kept), Pattern(2, 40000)));
  EXPECT_TRUE(kept);
  store.put(3, Pattern(3, 40000));  // key 2's kept file makes the room
  EXPECT_FALSE(store.contains(2));
  EXPECT_FALSE(store.put_kept(2)) << "the caller must put key 2's bytes";
  store.flush();

  // A put replaces a kept file; an erase drops it.
  EXPECT_TRUE(Same(store.read(3, kept), Pattern(3, 40000)));
  store.put(3, Pattern(4, 1000));
  EXPECT_TRUE(Same(store.take(3), Pattern(4, 1000)));
  EXPECT_TRUE(Same(store.read(1, kept), Pattern(1, 40000)));
  store.erase(1);
  EXPECT_FALSE(store.contains(1));
  EXPECT_FALSE(store.put_kept(1));

  // A kept file damaged before the next read: reported, and the key leaves.
  store.put(5, Pattern(5, 5000));
  store.flush();
  EXPECT_TRUE(Same(store.read(5, kept), Pattern(5, 5000)));
  ASSERT_EQ(truncate(store.path_of(5).c_str(), 100), 0);
  EXPECT_THROW(store.read(5, kept), dash::exception::RuntimeError);
  EXPECT_FALSE(store.contains(5));

  // Read right after a put: a write queued or under way finishes and its
  // bytes come back (no file read), or the written file is read; either way
  // the file stays the key's, so an unchanged block is not written again.
  for (std::uint64_t k = 10; k < 20; ++k) {
    store.put(k, Pattern(k, 100 + k));
    EXPECT_TRUE(Same(store.read(k, kept), Pattern(k, 100 + k)));
    EXPECT_TRUE(kept) << "key " << k;
    EXPECT_TRUE(store.put_kept(k)) << "key " << k;
  }
  for (std::uint64_t k = 10; k < 20; ++k) EXPECT_TRUE(Same(store.take(k), Pattern(k, 100 + k)));
}

TEST(OocStore, FailedWrite_ReportedAndNothingLost) {
  ScopedEnv fail("DASH_OOC_TEST_FAIL_WRITE", "2");
  BlockStore store("fullfs");
  store.put(1, Pattern(1, 3000));
  store.put(2, Pattern(2, 3000));  // this write fails (ENOSPC)
  try {
    store.flush();
    ADD_FAILURE() << "no exception";
  } catch (const dash::exception::RuntimeError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(store.path_of(2)), std::string::npos) << what;
    EXPECT_NE(what.find("key 2"), std::string::npos) << what;
    EXPECT_NE(what.find("No space left on device"), std::string::npos) << what;
  }
  EXPECT_NO_THROW(store.flush());                      // reported once
  EXPECT_TRUE(Same(store.take(2), Pattern(2, 3000)));  // kept in memory
  EXPECT_TRUE(Same(store.take(1), Pattern(1, 3000)));
  ExpectNothingStored(SpillDirectory::instance().path());
}

TEST(OocStore, DirectIo_WhereTheFileSystemAllowsIt) {
  // The build tree's file system (tmpfs refuses O_DIRECT: then a clear error).
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
  const std::string here = cwd;
  dash::bp::remove_spill_directory();
  ScopedEnv dir("DASH_OOC_DIR", here.c_str());
  ScopedEnv direct("DASH_OOC_DIRECT", "1");
  {
    BlockStore store("direct");
    store.put(1, Pattern(1, 10000));
    store.put(2, Pattern(2, 0));
    try {
      store.flush();
      EXPECT_TRUE(Same(store.take(1), Pattern(1, 10000)));
      EXPECT_TRUE(Same(store.take(2), Pattern(2, 0)));
      // Files are whole pages; bytes a take returned (page aligned) go back
      // in place, sizes at the page edges included.
      for (std::size_t n :
           {std::size_t(4064), std::size_t(4065), std::size_t(8192), std::size_t(1)}) {
        SCOPED_TRACE(n);
        store.put(3, Pattern(3, n));
        store.flush();
        struct stat st;
        ASSERT_EQ(stat(store.path_of(3).c_str(), &st), 0);
        EXPECT_EQ(std::size_t(st.st_size) % 4096, 0u);
        dash::bp::Bytes taken = store.take(3);
        ASSERT_TRUE(Same(taken, Pattern(3, n)));
        taken.data()[0] = char(taken.data()[0] ^ 1);
        dash::bp::Bytes expected = taken;
        store.put(4, std::move(taken));
        store.flush();
        EXPECT_TRUE(Same(store.take(4), expected)) << "written in place";
      }
      // Bytes of 128 KiB and more are page-aligned mappings of their own: with room for the
      // padding and trailer they are written in place (not copied), without it copied; both
      // read back intact, and the bytes written in place are returned as they were given.
      const std::size_t mib4 = std::size_t(4) << 20;
      for (std::size_t n : {std::size_t(128) << 10, std::size_t(200000), mib4 - 32, mib4 - 31}) {
        SCOPED_TRACE(n);
        dash::bp::Bytes given = Pattern(6, n);
        ASSERT_EQ(reinterpret_cast<std::uintptr_t>(given.data()) % 4096, 0u);
        store.put(6, std::move(given));
        store.flush();
        EXPECT_TRUE(Same(store.take(6), Pattern(6, n)));
      }
      store.put(5, Pattern(5, 6000));
      store.flush();
      ASSERT_EQ(truncate(store.path_of(5).c_str(), 4096), 0);
      EXPECT_THROW(store.take(5), dash::exception::RuntimeError) << "a cut padded file";
    } catch (const dash::exception::RuntimeError& e) {
      EXPECT_NE(std::string(e.what()).find("refuses O_DIRECT"), std::string::npos) << e.what();
      GTEST_SKIP() << "no O_DIRECT on " << here << ": " << e.what();
    }
  }
  dash::bp::remove_spill_directory();
}

TEST(OocStore, UnsafeDirectories_Refused) {
  char templ[] = "/tmp/dash-ooc-test-XXXXXX";
  ASSERT_NE(mkdtemp(templ), nullptr);
  const std::string base = templ;
  const std::string open_dir = base + "/open", file = base + "/file";
  ASSERT_EQ(mkdir(open_dir.c_str(), 0777), 0);
  ASSERT_EQ(chmod(open_dir.c_str(), 0777), 0);  // world-writable, no sticky bit
  const int fd = open(file.c_str(), O_CREAT | O_WRONLY, 0600);
  ASSERT_GE(fd, 0);
  close(fd);
  struct Case {
    std::string dir, why;
  };
  const std::string group_dir = base + "/group";
  ASSERT_EQ(mkdir(group_dir.c_str(), 0770), 0);
  ASSERT_EQ(chmod(group_dir.c_str(), 0770), 0);  // group-writable, no sticky bit
  std::vector<Case> cases = {{base + "/missing", "No such file"},
                             {file, "not a directory"},
                             {open_dir, "writable by every user without the sticky bit"},
                             {open_dir + "/", "writable by every user without the sticky bit"},
                             {group_dir, "writable by its group without the sticky bit"}};
  if (geteuid() == 0) {  // another user's directory, reached directly or through a symlink
    const std::string theirs = base + "/theirs", link = base + "/link", sub = theirs + "/sub";
    ASSERT_EQ(mkdir(theirs.c_str(), 0700), 0);
    ASSERT_EQ(mkdir(sub.c_str(), 0700), 0);  // root's, inside theirs: they can still swap it
    ASSERT_EQ(chown(theirs.c_str(), 65534, 65534), 0);
    ASSERT_EQ(symlink(theirs.c_str(), link.c_str()), 0);
    for (const std::string& d : {theirs, link, link + "/", link + "/.", link + "/sub"})
      cases.push_back({d, "'" + theirs + "' belongs to another user (uid 65534)"});
  }
  dash::bp::remove_spill_directory();
  for (const Case& c : cases) {
    ScopedEnv dir("DASH_OOC_DIR", c.dir.c_str());
    try {
      BlockStore store("refused");
      ADD_FAILURE() << c.dir << ": no exception";
    } catch (const dash::exception::InvalidArgument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(c.dir), std::string::npos) << what;
      EXPECT_NE(what.find(c.why), std::string::npos) << what;
    }
    EXPECT_FALSE(SpillDirectory::exists());
  }
  ASSERT_EQ(chmod(open_dir.c_str(), 01777), 0);  // with the sticky bit: fine
  {
    ScopedEnv dir("DASH_OOC_DIR", open_dir.c_str());
    BlockStore store("sticky");
    EXPECT_EQ(SpillDirectory::instance().path().rfind(open_dir + "/dash-ooc-", 0), 0u);
    dash::bp::remove_spill_directory();
  }
  std::string cleanup = "rm -rf '" + base + "'";
  EXPECT_EQ(std::system(cleanup.c_str()), 0);
}

// Files are made, read and removed relative to the spill directory's descriptor, not by path:
// a directory swapped for a symlink after it was made (what another user could do where the
// checks did not refuse the parent) changes nothing; the bytes stay in the directory made.
TEST(OocStore, SpillFiles_FollowTheDirectoryNotItsPath) {
  char templ[] = "/tmp/dash-ooc-swap-XXXXXX";
  ASSERT_NE(mkdtemp(templ), nullptr);
  const std::string base = templ, moved = base + "/moved", elsewhere = base + "/elsewhere";
  dash::bp::remove_spill_directory();
  {
    ScopedEnv dir("DASH_OOC_DIR", base.c_str());
    BlockStore store("swap");
    store.put(1, Pattern(1, 5000));
    store.flush();
    const std::string path = SpillDirectory::instance().path();
    ASSERT_EQ(rename(path.c_str(), moved.c_str()), 0);
    ASSERT_EQ(mkdir(elsewhere.c_str(), 0700), 0);
    ASSERT_EQ(symlink(elsewhere.c_str(), path.c_str()), 0);
    store.put(2, Pattern(2, 7000));
    store.flush();
    EXPECT_TRUE(Files(elsewhere).empty()) << "a spill file went through the symlink";
    EXPECT_GE(FileSize(moved + "/blocks"), 12000u) << "both keys' extents in the directory made";
    EXPECT_TRUE(Same(store.take(1), Pattern(1, 5000)));
    EXPECT_TRUE(Same(store.take(2), Pattern(2, 7000)));
    dash::bp::remove_spill_directory();
    EXPECT_TRUE(Files(elsewhere).empty());
  }
  std::string cleanup = "rm -rf '" + base + "'";
  EXPECT_EQ(std::system(cleanup.c_str()), 0);
}

TEST(OocStore, NothingLeftBehind) {
  std::string dir;
  {
    BlockStore a("left-a"), b("left-b");
    for (std::uint64_t k = 0; k < 10; ++k) {
      a.put(k, Pattern(k, 2000));
      b.put(k, Pattern(k, 100));
    }
    a.flush();
    b.flush();
    b.prefetch(3);
    dir = SpillDirectory::instance().path();
    EXPECT_EQ(dash::bp::stored_disk_bytes(), 20 * 4096u) << "20 extents of a page";
  }
  ExpectNothingStored(dir);
  dash::bp::remove_spill_directory();
  struct stat st;
  EXPECT_NE(stat(dir.c_str(), &st), 0);
}

// Spill directories left by units that were killed (SIGKILL) are removed by the next unit that
// makes one in the same parent: ours, mode 0700, not a symlink, with an unlocked, non-empty
// owner file. Kept: one whose owner file is locked (a live unit), empty (being made) or
// missing, one with another mode, a symlink, and anything not named dash-ooc-*.
TEST(OocStore, AbandonedDirectories_RemovedOthersKept) {
  char templ[] = "/tmp/dash-ooc-reap-XXXXXX";
  ASSERT_NE(mkdtemp(templ), nullptr);
  const std::string base = templ;
  auto make = [&](const std::string& name, mode_t mode, const char* owner_text) {
    const std::string dir = base + "/" + name;
    EXPECT_EQ(mkdir(dir.c_str(), 0700), 0);
    EXPECT_EQ(chmod(dir.c_str(), mode), 0);
    std::ofstream(dir + "/block-1") << "spilled bytes";
    if (owner_text != nullptr) std::ofstream(dir + "/.owner") << owner_text;
    return dir;
  };
  const std::string dead = make("dash-ooc-dead01", 0700, "4242 somehost\n");
  const std::string live = make("dash-ooc-live01", 0700, "4243 somehost\n");
  const std::string empty = make("dash-ooc-empty1", 0700, "");
  const std::string no_owner = make("dash-ooc-noown1", 0700, nullptr);
  const std::string other_mode = make("dash-ooc-mode01", 0750, "4244 somehost\n");
  const std::string other_name = make("not-dash-ooc-1", 0700, "4245 somehost\n");
  const std::string link = base + "/dash-ooc-link01";
  ASSERT_EQ(symlink(dead.c_str(), link.c_str()), 0);
  // A live unit holds its owner file's lock (another open file description: flock conflicts
  // even within one process).
  const int live_lock = open((live + "/.owner").c_str(), O_RDONLY);
  ASSERT_GE(live_lock, 0);
  ASSERT_EQ(flock(live_lock, LOCK_EX), 0);
  dash::bp::remove_spill_directory();
  {
    ScopedEnv dir("DASH_OOC_DIR", base.c_str());
    BlockStore store("reaper");
    const std::string mine = SpillDirectory::instance().path();
    struct stat st;
    EXPECT_NE(lstat(dead.c_str(), &st), 0) << "abandoned: removed";
    for (const std::string& kept : {live, empty, no_owner, other_mode, other_name, mine})
      EXPECT_EQ(lstat((kept + "/").c_str(), &st), 0) << kept << " must be kept";
    EXPECT_EQ(lstat(link.c_str(), &st), 0) << "a symlink is never followed nor removed";
    std::ifstream owner(mine + "/.owner");
    std::string pid;
    owner >> pid;
    EXPECT_EQ(pid, std::to_string(getpid())) << "the new directory names its process";
    dash::bp::remove_spill_directory();
  }
  close(live_lock);
  std::string cleanup = "rm -rf '" + base + "'";
  EXPECT_EQ(std::system(cleanup.c_str()), 0);
}

}  // namespace
