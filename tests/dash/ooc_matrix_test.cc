// dash::ooc::LocalArrayFile and dash::ooc::Matrix: a local array file keeps
// what was written, reports damage with its path; an out-of-core matrix
// gives the same values as a dash::Matrix for element access and copy, and
// those of a serial stencil for sweeps with every ghost strategy, slab
// count, memory limit and thread count.
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Matrix.h>
#include <dash/bp/ContainerBlocks.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/Master.h>
#include <dash/ooc/Ghosts.h>
#include <dash/ooc/LocalArrayFile.h>
#include <dash/ooc/Matrix.h>
#include <dash/ooc/SpillDirectory.h>
#include <fcntl.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "mpi_test.h"
#include "peak_memory.h"
#include "scoped_env.h"

namespace {

using dash::bp::Bytes;
using dash::ooc::LocalArrayFile;
using dash_test::AnonymousResidentBytes;
using dash_test::myid;
using dash_test::PeakAnonymousResidentBytes;
using Coords = std::array<long, 2>;

Bytes Filled(std::size_t n, char seed) {
  Bytes b;
  b.resize(n);
  for (std::size_t i = 0; i < n; ++i) b.data()[i] = char(seed + 7 * i);
  return b;
}

bool Same(const Bytes& a, const Bytes& b) {
  return a.size() == b.size() && (a.size() == 0 || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

std::string FileName(const char* what) {
  return std::string(what) + "-" + std::to_string(myid()) + "-" + std::to_string(getpid());
}

TEST(OocLocalArrayFile, RegionsKeepWhatWasWrittenAndStartAsZero) {
  LocalArrayFile file(FileName("laf-roundtrip"), {{7, 100}, {3, 4096}, {9, 1}});
  const Bytes zero = file.take(3);
  ASSERT_EQ(zero.size(), 4096u);
  for (std::size_t i = 0; i < zero.size(); ++i) ASSERT_EQ(zero.data()[i], 0) << i;
  EXPECT_EQ(file.counters().bytes_read, 0u) << "a region never written is not read";
  file.put(7, Filled(100, 1));
  file.put(3, Filled(4096, 2));
  file.put(9, Filled(1, 3));
  file.prefetch(3);
  EXPECT_TRUE(Same(file.take(3), Filled(4096, 2)));
  EXPECT_TRUE(Same(file.take(3), Filled(4096, 2))) << "take leaves the region as it was";
  EXPECT_TRUE(Same(file.take(7), Filled(100, 1)));
  EXPECT_TRUE(Same(file.take(9), Filled(1, 3)));
  file.put(7, Filled(100, 5));
  EXPECT_TRUE(Same(file.take(7), Filled(100, 5)));
  file.flush();
  EXPECT_EQ(file.counters().bytes_written, 100u + 4096u + 1u + 100u);
  EXPECT_EQ(file.counters().bytes_read, 4096u * 2 + 100u * 2 + 1u);
  EXPECT_TRUE(file.keeps_taken());
}

// A prefetch cancelled while reading or after: the region keeps its bytes
// and a take reads them again.
TEST(OocLocalArrayFile, CancelledPrefetch_RegionReadsAgain) {
  const std::size_t n = (std::size_t(1) << 20) + 3;
  LocalArrayFile file(FileName("laf-cancel"), {{0, n}, {1, n}, {2, n}});
  for (std::uint64_t k = 0; k < 3; ++k) file.put(k, Filled(n, char(k)));
  file.flush();
  file.prefetch(0);
  file.cancel_prefetch(0);  // most likely still reading
  file.prefetch(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  file.cancel_prefetch(1);  // most likely read
  file.prefetch(2);
  file.cancel_prefetch(2);
  file.prefetch(2);  // wanted again
  for (std::uint64_t k = 0; k < 3; ++k)
    EXPECT_TRUE(Same(file.take(k), Filled(n, char(k)))) << "region " << k;
  EXPECT_EQ(file.counters().bytes_read, 3 * n);
}

TEST(OocLocalArrayFile, WrongSizesAndUnknownRegionsAreRefused) {
  LocalArrayFile file(FileName("laf-bad"), {{1, 64}});
  EXPECT_THROW(file.put(1, Filled(63, 0)), dash::exception::InvalidArgument);
  EXPECT_THROW(file.put(2, Filled(64, 0)), dash::exception::InvalidArgument);
  EXPECT_THROW(file.take(2), dash::exception::InvalidArgument);
  EXPECT_THROW(LocalArrayFile(FileName("laf-twice"), {{1, 8}, {1, 8}}),
               dash::exception::InvalidArgument);
}

// DASH_OOC_MAX_BYTES counts local array files with the spilled blocks: a file
// that does not fit is refused, names the quota and leaves nothing behind;
// one that fits counts until it is gone.
TEST(OocLocalArrayFile, QuotaCountsLocalArrayFiles) {
  dash_test::ScopedEnv quota("DASH_OOC_MAX_BYTES", "100K");
  const std::string dir = dash::ooc::SpillDirectory::instance().path();
  try {
    LocalArrayFile big(FileName("laf-quota"), {{0, std::uint64_t(1) << 20}});
    ADD_FAILURE() << "a 1 MiB local array file was made under a 100 KiB quota";
  } catch (const dash::exception::RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("DASH_OOC_MAX_BYTES=102400"), std::string::npos)
        << e.what();
  }
  struct stat st;
  EXPECT_NE(stat((dir + "/" + FileName("laf-quota")).c_str(), &st), 0) << "file left behind";
  {
    LocalArrayFile first(FileName("laf-quota-1"), {{0, 60 << 10}});
    EXPECT_THROW(LocalArrayFile(FileName("laf-quota-2"), {{0, 60 << 10}}),
                 dash::exception::RuntimeError)
        << "two files of 60 KiB under a 100 KiB quota";
  }
  LocalArrayFile again(FileName("laf-quota-3"), {{0, 60 << 10}});  // the first one is gone
}

TEST(OocLocalArrayFile, FileIsPrivateAndRemoved) {
  std::string path;
  {
    LocalArrayFile file(FileName("laf-mode"), {{0, 10}});
    path = file.path();
    struct stat st;
    ASSERT_EQ(stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
  }
  EXPECT_NE(access(path.c_str(), F_OK), 0) << path << " is left behind";
}

// Damage between write and read: the take names the file and the region.
TEST(OocLocalArrayFile, DamagedOrTruncatedRegionsAreReported) {
  LocalArrayFile file(FileName("laf-damage"), {{0, 256}, {1, 256}});
  file.put(0, Filled(256, 1));
  file.put(1, Filled(256, 2));
  file.flush();
  const int fd = open(file.path().c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  const char junk = 0x5a;
  ASSERT_EQ(pwrite(fd, &junk, 1, 10), 1);
  try {
    file.take(0);
    ADD_FAILURE() << "a changed byte went unnoticed";
  } catch (const dash::exception::RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find(file.path()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("region 0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("checksum"), std::string::npos) << e.what();
  }
  ASSERT_EQ(ftruncate(fd, 300), 0);
  close(fd);
  try {
    file.take(1);
    ADD_FAILURE() << "a truncated region went unnoticed";
  } catch (const dash::exception::RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  }
  file.put(0, Filled(256, 3));  // a region written anew is fine again
  EXPECT_TRUE(Same(file.take(0), Filled(256, 3)));
}

// A write that fails (a full disk, injected): reported once with the path
// and the region, its bytes kept in memory; a later write of the region works.
TEST(OocLocalArrayFile, FailedWritesLoseNothing) {
  dash_test::ScopedEnv fail("DASH_OOC_TEST_FAIL_WRITE", "2");
  LocalArrayFile file(FileName("laf-full"), {{0, 300}, {1, 300}});
  file.put(0, Filled(300, 1));
  file.put(1, Filled(300, 2));  // the second write fails
  try {
    file.flush();
    ADD_FAILURE() << "the failed write was not reported";
  } catch (const dash::exception::RuntimeError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(file.path()), std::string::npos) << what;
    EXPECT_NE(what.find("region 1"), std::string::npos) << what;
    EXPECT_NE(what.find("No space left on device"), std::string::npos) << what;
  }
  EXPECT_NO_THROW(file.flush());  // reported once
  EXPECT_TRUE(Same(file.take(1), Filled(300, 2))) << "the bytes of the failed write are lost";
  EXPECT_TRUE(Same(file.take(0), Filled(300, 1)));
  file.put(1, Filled(300, 3));
  file.flush();
  EXPECT_TRUE(Same(file.take(1), Filled(300, 3)));
}

// DASH_OOC_DIRECT=1: regions at page offsets, odd sizes, unaligned sources;
// on the build tree's file system (tmpfs refuses O_DIRECT: then a clear error).
TEST(OocLocalArrayFile, DirectIo_WhereTheFileSystemAllowsIt) {
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
  dash::ooc::remove_spill_directory();
  dash_test::ScopedEnv dir("DASH_OOC_DIR", cwd);
  dash_test::ScopedEnv direct("DASH_OOC_DIRECT", "1");
  try {
    LocalArrayFile file(FileName("laf-direct"), {{0, 100}, {1, 5000}, {2, 4096}});
    file.put(1, Filled(5000, 1));  // a malloc'd (unaligned) source
    file.put(0, Filled(100, 2));
    file.put(2, Filled(4096, 3));
    file.flush();
    EXPECT_TRUE(Same(file.take(1), Filled(5000, 1)));
    EXPECT_TRUE(Same(file.take(0), Filled(100, 2)));
    file.prefetch(2);
    EXPECT_TRUE(Same(file.take(2), Filled(4096, 3)));
  } catch (const dash::exception::RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("refuses O_DIRECT"), std::string::npos) << e.what();
    dash::ooc::remove_spill_directory();
    GTEST_SKIP() << "no O_DIRECT on " << cwd << ": " << e.what();
  }
  dash::ooc::remove_spill_directory();
}

// Many small adjacent regions with write-behind (their queued writes and reads ahead go to
// the file together, in batches): every region reads back as written, with and without
// O_DIRECT (where the build tree's file system allows it); a damaged region in the middle of
// a batch of reads is reported by name and its neighbours read fine; an injected failed write
// among queued ones loses nothing.
TEST(OocLocalArrayFile, AdjacentRegionsInBatches_ReadBackAsWritten) {
  constexpr std::uint64_t kRegions = 40;
  auto size_of = [](std::uint64_t k) { return std::size_t(3000 + 1111 * (k % 7)); };
  std::vector<std::pair<std::uint64_t, std::uint64_t>> layout;
  std::uint64_t total = 0;
  for (std::uint64_t k = 0; k < kRegions; ++k) {
    layout.emplace_back(k, size_of(k));
    total += size_of(k);
  }
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
  for (const char* direct : {"0", "1"}) {
    SCOPED_TRACE(std::string("DASH_OOC_DIRECT=") + direct);
    dash::ooc::remove_spill_directory();
    dash_test::ScopedEnv dir("DASH_OOC_DIR", cwd);
    dash_test::ScopedEnv direct_io("DASH_OOC_DIRECT", direct);
    std::unique_ptr<LocalArrayFile> file;
    try {
      file = std::make_unique<LocalArrayFile>(FileName("laf-batches"), layout, total);
    } catch (const dash::exception::RuntimeError& e) {
      EXPECT_NE(std::string(e.what()).find("refuses O_DIRECT"), std::string::npos) << e.what();
      continue;
    }
    for (std::uint64_t k = 0; k < kRegions; ++k) file->put(k, Filled(size_of(k), char(k)));
    file->flush();
    EXPECT_EQ(file->counters().bytes_written, total);
    for (std::uint64_t k = 0; k < kRegions; ++k) file->prefetch(k);
    for (std::uint64_t k = 0; k < kRegions; ++k)
      ASSERT_TRUE(Same(file->take(k), Filled(size_of(k), char(k)))) << "region " << k;
    EXPECT_EQ(file->counters().bytes_read, total);
    // Region 17 damaged; all read ahead at once.
    std::uint64_t offset = 0;
    for (std::uint64_t k = 0; k < 17; ++k)
      offset += direct[0] == '1' ? (size_of(k) + 4095) / 4096 * 4096 : size_of(k);
    const int fd = open(file->path().c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    const char junk = 0x5a;
    ASSERT_EQ(pwrite(fd, &junk, 1, off_t(offset + 5)), 1);
    close(fd);
    for (std::uint64_t k = 0; k < kRegions; ++k) file->prefetch(k);
    for (std::uint64_t k = 0; k < kRegions; ++k) {
      if (k != 17) {
        ASSERT_TRUE(Same(file->take(k), Filled(size_of(k), char(k)))) << "region " << k;
        continue;
      }
      try {
        file->take(k);
        ADD_FAILURE() << "the damaged region read as fine";
      } catch (const dash::exception::RuntimeError& e) {
        EXPECT_NE(std::string(e.what()).find("region 17 "), std::string::npos) << e.what();
      }
    }
    file.reset();
    // The 5th put's write fails among queued ones: reported, its bytes kept, the rest written.
    dash_test::ScopedEnv fail("DASH_OOC_TEST_FAIL_WRITE", "5");
    file = std::make_unique<LocalArrayFile>(FileName("laf-batches-fail"), layout, total);
    int reported = 0;  // at a later put (which then queues nothing) or at flush
    for (std::uint64_t k = 0; k < kRegions; ++k) try {
        file->put(k, Filled(size_of(k), char(k + 1)));
      } catch (const dash::exception::RuntimeError& e) {
        EXPECT_NE(std::string(e.what()).find("region 4 "), std::string::npos) << e.what();
        ++reported;
        file->put(k, Filled(size_of(k), char(k + 1)));
      }
    try {
      file->flush();
    } catch (const dash::exception::RuntimeError& e) {
      EXPECT_NE(std::string(e.what()).find("region 4 "), std::string::npos) << e.what();
      ++reported;
    }
    EXPECT_EQ(reported, 1);
    for (std::uint64_t k = 0; k < kRegions; ++k)
      ASSERT_TRUE(Same(file->take(k), Filled(size_of(k), char(k + 1)))) << "region " << k;
    EXPECT_EQ(file->counters().bytes_written, total - size_of(4));
    file.reset();
  }
  dash::ooc::remove_spill_directory();
}

// read_part: only the 64 KiB pieces holding the bytes are read (and
// checked); the last pieces read are reused; queued and never-written
// regions need no read; bad ranges and damage are reported.
TEST(OocLocalArrayFile, ReadPart_ReadsOnlyThePiecesItTouches) {
  constexpr std::size_t kPiece = 64 << 10, kSize = 300 << 10;  // pieces 0-3 full, 4 of 44 KiB
  LocalArrayFile file(FileName("laf-part"), {{0, kSize}, {1, 10}});
  EXPECT_TRUE(file.reads_parts());
  char got[32];
  ASSERT_TRUE(file.read_part(0, 100, 20, got));
  for (char c : std::string(got, 20)) EXPECT_EQ(c, 0) << "a region never written is zero";
  const Bytes data = Filled(kSize, 1);
  file.put(0, Filled(kSize, 1));
  ASSERT_TRUE(file.read_part(0, 1000, 10, got));  // queued or written: the same bytes
  EXPECT_EQ(std::memcmp(got, data.data() + 1000, 10), 0);
  file.put(0, Filled(kSize, 1));  // forgets the pieces that read may have kept
  file.flush();
  struct Case {
    std::size_t offset, n, read;  // read: bytes the file must give for it
  };
  for (const Case& c : {Case{0, 8, kPiece}, Case{kPiece - 6, 20, 2 * kPiece},
                        Case{kSize - 10, 10, kSize - 4 * kPiece},
                        Case{kSize - 5, 5, 0},  // the same pieces as before: not read again
                        Case{3 * kPiece, 0, 0}}) {
    SCOPED_TRACE("bytes " + std::to_string(c.offset) + " + " + std::to_string(c.n));
    const auto before = file.counters().bytes_read;
    ASSERT_TRUE(file.read_part(0, c.offset, c.n, got));
    EXPECT_EQ(std::memcmp(got, data.data() + c.offset, c.n), 0);
    EXPECT_EQ(file.counters().bytes_read - before, c.read);
  }
  EXPECT_THROW(file.read_part(0, kSize, 1, got), dash::exception::InvalidArgument);
  EXPECT_THROW(file.read_part(0, kSize - 1, 2, got), dash::exception::InvalidArgument);
  EXPECT_THROW(file.read_part(2, 0, 1, got), dash::exception::InvalidArgument);
  // A changed byte in piece 1: parts in other pieces still read, parts in it do not.
  const int fd = open(file.path().c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  const char junk = 0x5a;
  ASSERT_EQ(pwrite(fd, &junk, 1, off_t(kPiece + 10)), 1);
  close(fd);
  ASSERT_TRUE(file.read_part(0, 2 * kPiece, 16, got));
  EXPECT_EQ(std::memcmp(got, data.data() + 2 * kPiece, 16), 0);
  try {
    file.read_part(0, kPiece + 100, 4, got);
    ADD_FAILURE() << "a changed byte went unnoticed";
  } catch (const dash::exception::RuntimeError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(file.path()), std::string::npos) << what;
    EXPECT_NE(what.find("region 0"), std::string::npos) << what;
    EXPECT_NE(what.find("checksum mismatch in bytes 65536 to 131072"), std::string::npos) << what;
  }
  EXPECT_THROW(file.take(0), dash::exception::RuntimeError);
  file.put(0, Filled(kSize, 2));  // written anew: fine again, and not served from the old pieces
  file.flush();
  ASSERT_TRUE(file.read_part(0, kSize - 5, 5, got));
  EXPECT_EQ(std::memcmp(got, Filled(kSize, 2).data() + kSize - 5, 5), 0);
}

long Start(const Coords& g) { return (g[0] * 131 + g[1] * 7) % 1009 - 500; }

using OocMatrix = dash::ooc::Matrix<long, 2>;
using InCoreMatrix = dash::Matrix<long, 2>;
const dash::DistributionSpec<2> kBlocked(dash::BLOCKED, dash::BLOCKED);

TEST(OocMatrix, ElementsOfTheCallingUnit) {
  OocMatrix m(dash::SizeSpec<2>(37, 23), kBlocked, dash::Team::All(), 3);
  m.generate(Start);
  long cells = 0;
  m.for_each([&](const Coords& g, long v) {
    ++cells;
    EXPECT_EQ(v, Start(g)) << g[0] << "," << g[1];
  });
  long expected = 0;
  for (const auto& s : m.local_slabs()) expected += s.box.size();
  EXPECT_EQ(cells, expected);
  for (const auto& s : m.local_slabs()) {
    const Coords last{s.box.max[0] - 1, s.box.max[1] - 1};
    EXPECT_EQ(m.get(s.box.min), Start(s.box.min));
    m.set(last, 4242);
    EXPECT_EQ(m.get(last), 4242);
    EXPECT_EQ(m.get(s.box.min), s.box.min == last ? 4242 : Start(s.box.min));
  }
  if (dash::size() > 1) {
    // An element of the next unit's first slab is not ours.
    const int other = (myid() + 1) % int(dash::size());
    for (long i = 0; i < 37; ++i)
      for (long j = 0; j < 23; ++j) {
        const Coords g{i, j};
        if (int(m.pattern().unit_at({i, j}).id) != other) continue;
        EXPECT_THROW(m.get(g), dash::exception::InvalidArgument);
        i = 37;
        break;
      }
  }
  dash::barrier();
}

TEST(OocMatrix, BadSlabCountsAreRefused) {
  EXPECT_THROW(OocMatrix(dash::SizeSpec<2>(8, 8), kBlocked, dash::Team::All(), 0),
               dash::exception::InvalidArgument);
  // A block of at most 9 rows cannot be cut into 10 slabs.
  EXPECT_THROW(OocMatrix(dash::SizeSpec<2>(9, 8), kBlocked, dash::Team::All(), 10),
               dash::exception::InvalidArgument);
  dash::barrier();
}

#if defined(__GLIBC__)
// Out-of-core matrices (and blocks under a memory-block limit) leave the C
// library's allocation policy alone: after they were made, used and
// destroyed, glibc still raises its mmap threshold when a big buffer is
// freed, so the next buffer of that size comes from its heap instead of a
// fresh mapping (which would cost a page fault per 4 KiB on every use, as
// FFTW's temporaries did when the library fixed the threshold).
TEST(OocMatrix, AllocatorPolicyLeftAlone) {
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") != nullptr || std::getenv("GLIBC_TUNABLES") != nullptr)
    GTEST_SKIP() << "the environment sets glibc's allocator policy";
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer's allocator replaces glibc's";
#endif
  {
    OocMatrix m(dash::SizeSpec<2>(512, 64), kBlocked, dash::Team::All(), 4);
    m.generate(Start);
    long sum = 0;
    m.for_each([&](const Coords&, long v) { sum += v; });
    EXPECT_NE(sum, 0);
    struct Cell {
      long value[4096];  // 32 KiB: several go to the store
    };
    dash::bp::Master<Cell> master(4 * int(dash::size()), dash::bp::Assignment::contiguous);
    for (int gid : dash::bp::local_gids(myid(), master.nblocks(), int(dash::size()),
                                        dash::bp::Assignment::contiguous))
      master.add(gid, std::make_unique<Cell>(), {});
    master.limit(1);
    master.foreach ([](Cell& c, dash::bp::Proxy&) { c.value[0] = 1; });
  }
  constexpr std::size_t kBig = std::size_t(4) << 20;  // above 128 KiB, below glibc's 32 MiB cap
  auto touch = [](void* p) {
    std::memset(p, 1, kBig);
    asm volatile("" : : "r"(p) : "memory");  // keeps the compiler from dropping the pair
  };
  void* first = std::malloc(kBig);  // mapped, unless glibc's threshold was raised already
  ASSERT_NE(first, nullptr);
  touch(first);
  std::free(first);  // glibc raises its threshold past kBig (unless it is fixed)
  const struct mallinfo2 before = mallinfo2();
  void* second = std::malloc(kBig);
  ASSERT_NE(second, nullptr);
  touch(second);
  const struct mallinfo2 after = mallinfo2();
  std::free(second);
  EXPECT_EQ(after.hblks, before.hblks)
      << "a 4 MiB malloc after a 4 MiB free was mapped afresh: glibc's mmap threshold is fixed";
  dash::barrier();
}
#endif

TEST(OocMatrix, CopyToAndFromAMatrixOfTheSamePattern) {
  OocMatrix m(dash::SizeSpec<2>(29, 31), kBlocked, dash::Team::All(), 2);
  m.generate(Start);
  InCoreMatrix a(dash::SizeSpec<2>(29, 31), kBlocked);
  dash::ooc::copy(m, a);
  dash::barrier();
  for (long i = 0; i < 29; ++i)
    for (long j = 0; j < 31; ++j) ASSERT_EQ(long(a(i, j)), Start({i, j})) << i << "," << j;
  dash::barrier();
  auto master = dash::bp::of(a);
  master.foreach ([](dash::bp::ContainerBlock<long, 2>& b, dash::bp::Proxy&) {
    for (long i = 0; i < b.extent(0); ++i)
      for (long j = 0; j < b.extent(1); ++j) b(i, j) = -b(i, j);
  });
  OocMatrix back(dash::SizeSpec<2>(29, 31), kBlocked, dash::Team::All(), 5);
  dash::ooc::copy(a, back);
  back.for_each([](const Coords& g, long v) { ASSERT_EQ(v, -Start(g)); });
  InCoreMatrix other(dash::SizeSpec<2>(29, 30), kBlocked);
  EXPECT_THROW(dash::ooc::copy(m, other), dash::exception::InvalidArgument);
  dash::barrier();
}

// copy between an out-of-core matrix (distribution `ooc`) and a dash::Matrix
// of type M and distribution `dist`, both ways: every element checked on
// every unit.
template <class M>
void CopyBothWays(const dash::DistributionSpec<2>& ooc, const dash::DistributionSpec<2>& dist,
                  long rows, long cols) {
  OocMatrix m(dash::SizeSpec<2>(rows, cols), ooc, dash::Team::All(), 2);
  m.generate(Start);
  M a(dash::SizeSpec<2>(rows, cols), dist);
  dash::ooc::copy(m, a);  // ends with a barrier: every unit's puts are in
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j) ASSERT_EQ(long(a(i, j)), Start({i, j})) << i << "," << j;
  dash::barrier();
  for (long* x = a.lbegin(); x != a.lend(); ++x) *x = -*x;
  OocMatrix back(dash::SizeSpec<2>(rows, cols), ooc, dash::Team::All(), 3);
  dash::ooc::copy(a, back);  // starts with a barrier: every unit's writes are in
  long seen = 0;
  back.for_each([&](const Coords& g, long v) {
    ASSERT_EQ(v, -Start(g)) << g[0] << "," << g[1];
    ++seen;
  });
  long total = 0;
  ASSERT_EQ(DART_OK, dart_allreduce(&seen, &total, 1, DART_TYPE_LONG, DART_OP_SUM, DART_TEAM_ALL));
  EXPECT_EQ(total, rows * cols);
}

TEST(OocMatrix, CopyAcrossPatterns_EveryElementOnEveryUnit) {
  using ColMajor =
      dash::Matrix<long, 2, dash::default_index_t, dash::TilePattern<2, dash::COL_MAJOR>>;
  using Blocks = dash::Matrix<long, 2, dash::default_index_t, dash::BlockPattern<2>>;
  const dash::DistributionSpec<2> by_rows(dash::BLOCKED, dash::NONE);
  for (const auto& ooc : {kBlocked, by_rows}) {
    for (const auto& dist : {dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)),
                             dash::DistributionSpec<2>(dash::NONE, dash::BLOCKED),
                             dash::DistributionSpec<2>(dash::CYCLIC, dash::BLOCKCYCLIC(2)), ooc}) {
      SCOPED_TRACE(std::string(ooc == kBlocked ? "ooc blocked" : "ooc by rows") + ", dist " +
                   std::to_string(int(dist[0].type)) + "/" + std::to_string(int(dist[1].type)));
      {
        SCOPED_TRACE("dash::Matrix");
        CopyBothWays<InCoreMatrix>(ooc, dist, 29, 31);
      }
      {
        SCOPED_TRACE("TilePattern<2, COL_MAJOR>");
        CopyBothWays<ColMajor>(ooc, dist, 29, 31);
      }
      {
        SCOPED_TRACE("BlockPattern<2>");
        CopyBothWays<Blocks>(ooc, dist, 21, 7);
      }
    }
  }
  {  // a damaged file on the last unit: every unit throws, none waits
    OocMatrix m(dash::SizeSpec<2>(29, 31), kBlocked, dash::Team::All(), 2);
    m.generate(Start);
    m.file()->flush();
    const bool damaged = myid() == dash_test::nunits() - 1;
    if (damaged) {
      const int fd = open(m.file()->path().c_str(), O_RDWR);
      ASSERT_GE(fd, 0);
      char junk = 0x5a;
      ASSERT_EQ(pwrite(fd, &junk, 1, 0), 1);  // the first slab's first byte
      close(fd);
    }
    dash::Matrix<long, 2, dash::default_index_t, dash::TilePattern<2, dash::COL_MAJOR>> a(
        dash::SizeSpec<2>(29, 31), dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
    try {
      dash::ooc::copy(m, a);
      ADD_FAILURE() << "no exception";
    } catch (const dash::exception::RemoteFailure& e) {
      EXPECT_FALSE(damaged) << e.what();
      EXPECT_EQ(e.unit(), dash_test::nunits() - 1);
    } catch (const dash::exception::RuntimeError& e) {
      EXPECT_TRUE(damaged) << e.what();
      EXPECT_NE(std::string(e.what()).find(m.file()->path()), std::string::npos) << e.what();
    }
  }
  InCoreMatrix wide(dash::SizeSpec<2>(29, 32), kBlocked);
  OocMatrix m(dash::SizeSpec<2>(29, 31), kBlocked, dash::Team::All(), 2);
  EXPECT_THROW(dash::ooc::copy(m, wide), dash::exception::InvalidArgument);
  EXPECT_THROW(dash::ooc::copy(wide, m), dash::exception::InvalidArgument);
  dash::barrier();
}

// One sweep of an asymmetric stencil (directions cannot be mixed up
// unnoticed) over a block: the new value from the old ones, row by row.
void Stencil(dash::bp::ContainerBlock<long, 2>& b, bool corners) {
  const long R = b.extent(0), C = b.extent(1);
  std::vector<long> old(std::size_t((R + 2) * (C + 2)));
  auto at = [&](long i, long j) -> long& { return old[std::size_t((i + 1) * (C + 2) + j + 1)]; };
  for (long i = -1; i <= R; ++i)
    for (long j = -1; j <= C; ++j) {
      const bool corner = (i < 0 || i == R) && (j < 0 || j == C);
      at(i, j) = corner && !corners ? 0 : b(i, j);
    }
  for (long i = 0; i < R; ++i)
    for (long j = 0; j < C; ++j) {
      long v = 7 * at(i, j) + at(i - 1, j) + 2 * at(i + 1, j) + 3 * at(i, j - 1) + 5 * at(i, j + 1);
      if (corners) v += 11 * at(i - 1, j - 1) + 13 * at(i + 1, j + 1);
      b(i, j) = v % 100003;
    }
}

struct SweepCase {
  const char* strategy;
  int slabs_per_block;
  std::size_t mem_slabs;
  int threads;
  bool corners, periodic;
};

// Start values into every block of an in-core matrix's master. Local.
void FillStart(dash::bp::Master<dash::bp::ContainerBlock<long, 2>>& master) {
  master.foreach ([](dash::bp::ContainerBlock<long, 2>& b, dash::bp::Proxy&) {
    for (long i = 0; i < b.extent(0); ++i)
      for (long j = 0; j < b.extent(1); ++j)
        b(i, j) = Start({b.box().min[0] + i, b.box().min[1] + j});
  });
}

// The sweeps of Stencil over the whole rows x cols grid, done serially from
// the start values (row-major): cells outside the grid read 0, or the cell
// on the other side in periodic dimensions. The reference of OocSweep.
std::vector<long> SerialSweeps(long rows, long cols, bool corners, bool periodic, int sweeps) {
  std::vector<long> grid(std::size_t(rows * cols)), next(grid.size());
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j) grid[std::size_t(i * cols + j)] = Start({i, j});
  auto old = [&](long i, long j) -> long {
    if (periodic) {
      i = (i + rows) % rows;
      j = (j + cols) % cols;
    } else if (i < 0 || i >= rows || j < 0 || j >= cols) {
      return 0;
    }
    return grid[std::size_t(i * cols + j)];
  };
  for (int k = 0; k < sweeps; ++k) {
    for (long i = 0; i < rows; ++i)
      for (long j = 0; j < cols; ++j) {
        long v = 7 * old(i, j) + old(i - 1, j) + 2 * old(i + 1, j) + 3 * old(i, j - 1) +
                 5 * old(i, j + 1);
        if (corners) v += 11 * old(i - 1, j - 1) + 13 * old(i + 1, j + 1);
        next[std::size_t(i * cols + j)] = v % 100003;
      }
    grid.swap(next);
  }
  return grid;
}

class OocSweep : public ::testing::TestWithParam<SweepCase> {};

// Sweeps over a dash::Matrix (collective) and over an out-of-core matrix (the
// case's strategy) give, on every unit, the serial sweeps' values for every
// local element; the units' elements together are the whole grid.
TEST_P(OocSweep, SameAsSerialStencil) {
  const SweepCase c = GetParam();
  const long rows = 26, cols = 19;
  const dash::SizeSpec<2> size(rows, cols);
  const dash::bp::HaloSpec<2> halo{1, c.corners, {c.periodic, c.periodic}};
  const int sweeps = 3;
  const std::vector<long> expected = SerialSweeps(rows, cols, c.corners, c.periodic, sweeps);
  long seen = 0, wrong = 0;
  auto check = [&](const char* what, const Coords& g, long v) {
    ++seen;
    const long want = expected[std::size_t(g[0] * cols + g[1])];
    if (v != want && wrong++ == 0)
      ADD_FAILURE() << what << " cell " << g[0] << "," << g[1] << " is " << v << ", serially "
                    << want;
  };
  auto expect_whole_grid = [&](const char* what) {
    long total = 0;
    ASSERT_EQ(DART_OK,
              dart_allreduce(&seen, &total, 1, DART_TYPE_LONG, DART_OP_SUM, DART_TEAM_ALL));
    EXPECT_EQ(total, rows * cols) << what << ": elements checked on all units";
    EXPECT_EQ(wrong, 0) << what << ": cells unlike the serial sweeps on unit " << myid();
    seen = wrong = 0;
  };
  InCoreMatrix in_core(size, kBlocked);
  {
    auto master = dash::bp::of(in_core, halo);
    FillStart(master);
    for (int k = 0; k < sweeps; ++k)
      dash::ooc::sweep(
          master, dash::ooc::Ghosts::collective,
          [&](dash::bp::ContainerBlock<long, 2>& b, dash::bp::Proxy&) { Stencil(b, c.corners); });
    master.foreach ([&](dash::bp::ContainerBlock<long, 2>& b, dash::bp::Proxy&) {
      for (long i = 0; i < b.extent(0); ++i)
        for (long j = 0; j < b.extent(1); ++j)
          check("in core", {b.box().min[0] + i, b.box().min[1] + j}, b(i, j));
    });
  }
  expect_whole_grid("in core");
  OocMatrix m(size, kBlocked, dash::Team::All(), c.slabs_per_block);
  m.generate(Start);
  const auto strategy = dash::ooc::ghosts_from_name(c.strategy);
  {
    auto master = dash::bp::of(m, halo, c.mem_slabs);
    master.threads(c.threads);
    EXPECT_EQ(master.size(), m.local_slabs().size());
    if (c.mem_slabs > 0) {
      EXPECT_LE(master.resident_blocks(), c.mem_slabs);
    }
    if (strategy == dash::ooc::Ghosts::producer) dash::bp::post_halos(master);
    for (int k = 0; k < sweeps; ++k)
      dash::ooc::sweep(
          master, strategy,
          [&](dash::bp::ContainerBlock<long, 2>& b, dash::bp::Proxy&) { Stencil(b, c.corners); });
    if (c.mem_slabs > 0) {
      EXPECT_LE(master.resident_blocks(), c.mem_slabs * std::size_t(c.threads));
    }
  }
  m.for_each([&](const Coords& g, long v) { check("out of core", g, v); });
  expect_whole_grid("out of core");
}

INSTANTIATE_TEST_SUITE_P(Strategies, OocSweep,
                         ::testing::Values(SweepCase{"collective", 1, 1, 1, false, false},
                                           SweepCase{"collective", 3, 1, 1, false, false},
                                           SweepCase{"producer", 3, 1, 1, false, false},
                                           SweepCase{"producer", 4, 2, 2, false, false},
                                           SweepCase{"collective", 3, 0, 1, true, true},
                                           SweepCase{"producer", 2, 1, 1, true, true},
                                           SweepCase{"producer", 5, 1, 2, true, false},
                                           SweepCase{"demand", 1, 1, 1, false, false},
                                           SweepCase{"demand", 3, 1, 1, false, false},
                                           SweepCase{"demand", 4, 2, 2, true, true},
                                           SweepCase{"demand", 2, 0, 1, true, false}));

// Strategies one after another (the halos a producer sweep leaves waiting
// are dropped by a demand or collective sweep that follows; a producer
// sweep after those needs post_halos): the in-core result.
TEST(OocMatrix, StrategiesOneAfterAnother_SameAsInCore) {
  using dash::ooc::Ghosts;
  const dash::SizeSpec<2> size(40, 12);
  const dash::bp::HaloSpec<2> halo{1, false, {false, false}};
  auto stencil = [](dash::bp::ContainerBlock<long, 2>& b, dash::bp::Proxy&) { Stencil(b, false); };
  const Ghosts order[] = {Ghosts::producer, Ghosts::demand,   Ghosts::collective,
                          Ghosts::producer, Ghosts::producer, Ghosts::collective,
                          Ghosts::demand,   Ghosts::demand,   Ghosts::producer};
  InCoreMatrix ref(size, kBlocked);
  {
    auto master = dash::bp::of(ref, halo);
    FillStart(master);
    dash::barrier();
    for (std::size_t k = 0; k < std::size(order); ++k)
      dash::ooc::sweep(master, Ghosts::collective, stencil);
  }
  dash::barrier();
  OocMatrix m(size, kBlocked, dash::Team::All(), 4);
  m.generate(Start);
  {
    auto master = dash::bp::of(m, halo, 1);
    Ghosts last = Ghosts::collective;
    for (Ghosts g : order) {
      if (g == Ghosts::producer && last != Ghosts::producer) dash::bp::post_halos(master);
      dash::ooc::sweep(master, g, stencil);
      last = g;
    }
  }
  dash::barrier();
  m.for_each(
      [&](const Coords& g, long v) { ASSERT_EQ(v, long(ref(g[0], g[1]))) << g[0] << "," << g[1]; });
  dash::barrier();
}

// Demand with one slab in memory writes each slab exactly once (after its
// update): slabs loaded only to answer a neighbour's request, or before
// their own update, go back to their file unwritten. Worked out by hand:
// bytes written = the unit's local bytes, for 1 and 2 threads.
TEST(OocMatrix, DemandWritesEachSlabOnce) {
  for (int threads : {1, 2}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    OocMatrix m(dash::SizeSpec<2>(40, 9), kBlocked, dash::Team::All(), 5);
    m.generate(Start);
    m.file()->flush();
    long local_bytes = 0;
    for (const auto& sl : m.local_slabs()) local_bytes += sl.box.size() * long(sizeof(long));
    const auto before = m.counters();
    {
      auto master = dash::bp::of(m, {1, false, {false, false}}, 1);
      master.threads(threads);
      dash::ooc::sweep(
          master, dash::ooc::Ghosts::demand,
          [](dash::bp::ContainerBlock<long, 2>& b, dash::bp::Proxy&) { Stencil(b, false); });
    }
    m.file()->flush();
    const auto after = m.counters();
    EXPECT_EQ(long(after.bytes_written - before.bytes_written), local_bytes);
    EXPECT_GE(long(after.bytes_read - before.bytes_read), local_bytes);
    dash::barrier();
  }
}

// InMemory{f}: three slabs per 1/f of a block (one for f = 1); a fraction
// outside (0, 1] or blocks too short for the slabs are refused on every unit.
TEST(OocMatrix, InMemoryFractionSetsTheSlabs) {
  const auto units = long(dash::size());
  const dash::DistributionSpec<2> rows(dash::BLOCKED, dash::NONE);
  const dash::SizeSpec<2> size(96 * units, 8);
  for (auto [fraction, slabs] : std::vector<std::pair<double, int>>{
           {1.0, 1}, {0.5, 6}, {0.3, 10}, {0.125, 24}, {1.0 / 32, 96}}) {
    SCOPED_TRACE(fraction);
    OocMatrix m(size, rows, dash::Team::All(), dash::ooc::InMemory{fraction});
    EXPECT_EQ(m.slabs_per_block(), slabs);
  }
  for (double bad : {0.0, -0.5, 1.5, std::nan("")})
    EXPECT_THROW(OocMatrix(size, rows, dash::Team::All(), dash::ooc::InMemory{bad}),
                 dash::exception::InvalidArgument);
  try {
    OocMatrix(size, rows, dash::Team::All(), dash::ooc::InMemory{1.0 / 64});
    ADD_FAILURE() << "192 slabs per block of 96 rows";
  } catch (const dash::exception::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("needs 192 slabs per block"), std::string::npos)
        << e.what();
  }
  dash::barrier();
}

#if defined(__linux__)
// A 5-point stencil in place, row by row (two rows of temporaries, as a
// program short of memory would write it): each cell the sum of its four
// neighbours modulo a prime.
void RowStencil(dash::bp::ContainerBlock<long, 2>& b, dash::bp::Proxy&) {
  const long R = b.extent(0), C = b.extent(1);
  std::vector<long> above(static_cast<std::size_t>(C)), next(static_cast<std::size_t>(C));
  for (long j = 0; j < C; ++j) above[std::size_t(j)] = b(-1, j);
  for (long i = 0; i < R; ++i) {
    for (long j = 0; j < C; ++j)
      next[std::size_t(j)] =
          (above[std::size_t(j)] + b(i + 1, j) + b(i, j - 1) + b(i, j + 1)) % 100003;
    for (long j = 0; j < C; ++j) {
      above[std::size_t(j)] = b(i, j);
      b(i, j) = next[std::size_t(j)];
    }
  }
}

// The memory of sweeps over an out-of-core matrix follows its InMemory
// fraction: the slabs held, read ahead and being written back together stay
// within 1.25 x the fraction of the local array, plus 2 MiB for halos,
// queues and the I/O threads, for every ghost strategy, on every unit.
// (Before InMemory, slabs of the fraction with four in memory: 4 x.)
TEST(OocMatrix, PeakMemoryFollowsTheFraction) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer's allocator keeps freed memory resident";
#endif
  const long rows_per_unit = 8192, cols = 1024;  // 64 MiB of longs per unit
  const double fraction = 1.0 / 8;
  const long local_bytes = rows_per_unit * cols * long(sizeof(long));
  const long allowed = long(1.25 * fraction * double(local_bytes)) + (2L << 20);
  for (auto strategy :
       {dash::ooc::Ghosts::producer, dash::ooc::Ghosts::collective, dash::ooc::Ghosts::demand}) {
    SCOPED_TRACE(int(strategy));
    const long before = AnonymousResidentBytes();
    const long peak = PeakAnonymousResidentBytes([&] {
                        OocMatrix m(dash::SizeSpec<2>(rows_per_unit * long(dash::size()), cols),
                                    dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE),
                                    dash::Team::All(), dash::ooc::InMemory{fraction});
                        m.generate(Start);
                        auto master = dash::bp::of(m, {1, false, {false, false}});
                        if (strategy == dash::ooc::Ghosts::producer) dash::bp::post_halos(master);
                        for (int sweep = 0; sweep < 2; ++sweep)
                          dash::ooc::sweep(master, strategy, RowStencil);
                        master.write_back();
                      }) -
                      before;
    EXPECT_LE(peak, allowed) << "peak " << peak << " bytes above the start, " << local_bytes
                             << " bytes of local array, fraction " << fraction;
    dash::barrier();
  }
}

// After sweeps, a slab out of memory holds no halo memory for the pieces
// its neighbours fill, nor (collective, demand: every queue taken) queue
// memory; the result is the in-core one. 8 KiB halo pieces, 12 slabs per
// unit, one in memory.
TEST(OocMatrix, SweptSlabsOutOfMemory_HoldNoHaloMemory) {
  const long rows = 96 * long(dash::size()), cols = 1024;
  const dash::DistributionSpec<2> by_rows(dash::BLOCKED, dash::NONE);
  InCoreMatrix ref(dash::SizeSpec<2>(rows, cols), by_rows);
  {
    auto master = dash::bp::of(ref, {1, false, {false, false}});
    FillStart(master);
    dash::barrier();
    for (int sweep = 0; sweep < 2; ++sweep)
      dash::ooc::sweep(master, dash::ooc::Ghosts::collective, RowStencil);
  }
  dash::barrier();
  for (auto strategy :
       {dash::ooc::Ghosts::collective, dash::ooc::Ghosts::producer, dash::ooc::Ghosts::demand}) {
    SCOPED_TRACE(int(strategy));
    OocMatrix m(dash::SizeSpec<2>(rows, cols), by_rows, dash::Team::All(), 12);
    m.generate(Start);
    {
      auto master = dash::bp::of(m, {1, false, {false, false}}, 1);
      ASSERT_EQ(master.size(), 12u);
      if (strategy == dash::ooc::Ghosts::producer) dash::bp::post_halos(master);
      for (int sweep = 0; sweep < 2; ++sweep) dash::ooc::sweep(master, strategy, RowStencil);
      std::size_t out_of_memory = 0;
      master.foreach_shell([&](dash::bp::ContainerBlock<long, 2>& b, dash::bp::Proxy& p) {
        if (b.payload_resident()) return;
        ++out_of_memory;
        std::size_t kept = 0;  // the pieces no neighbour fills keep their values
        for (int k = 0; k < b.kDirections; ++k)
          if (b.neighbor(k) < 0) kept += std::size_t(b.halo_piece_size(k)) * sizeof(long);
        EXPECT_LE(b.halo_memory(), kept) << "slab " << b.gid();
        if (b.neighbor(1) >= 0) {  // the piece above: without memory, 0 whatever is written
          b(-1, 0) = 7;
          EXPECT_EQ(b(-1, 0), 0) << "slab " << b.gid();
        }
        if (strategy != dash::ooc::Ghosts::producer) {
          EXPECT_EQ(p.queue_memory(), 0u) << "slab " << b.gid();
        }
      });
      EXPECT_GE(out_of_memory, 11u);
      master.write_back();
    }
    dash::barrier();
    m.for_each([&](const Coords& g, long v) {
      ASSERT_EQ(v, long(ref(g[0], g[1]))) << g[0] << "," << g[1];
    });
    dash::barrier();
  }
}
#endif

// exchange_halos only reads the slabs: nothing is written back.
TEST(OocMatrix, HaloExchangeReadsEachSlabOnceAndWritesNothing) {
  OocMatrix m(dash::SizeSpec<2>(24, 10), kBlocked, dash::Team::All(), 4);
  m.generate(Start);
  m.file()->flush();
  const auto before = m.counters();
  long local_bytes = 0;
  for (const auto& s : m.local_slabs()) local_bytes += s.box.size() * long(sizeof(long));
  {
    auto master = dash::bp::of(m, {1, false, {false, false}}, 1);
    dash::bp::exchange_halos(master);
    const auto after = m.counters();
    EXPECT_EQ(after.bytes_written, before.bytes_written);
    EXPECT_EQ(long(after.bytes_read - before.bytes_read), local_bytes);
    // The halos hold the neighbours' cells.
    master.foreach_read([](const dash::bp::ContainerBlock<long, 2>& b, dash::bp::Proxy&) {
      const auto& box = b.box();
      for (long j = 0; j < b.extent(1); ++j) {
        if (box.min[0] > 0) {
          EXPECT_EQ(b(-1, j), Start({box.min[0] - 1, box.min[1] + j}));
        }
        if (box.max[0] < 24) {
          EXPECT_EQ(b(b.extent(0), j), Start({box.max[0], box.min[1] + j}));
        }
      }
    });
  }
  EXPECT_EQ(m.counters().bytes_written, before.bytes_written) << "read slabs were written back";
  dash::barrier();
}

// Slabs out of memory whose neighbours are only above and below them send
// their end rows read from the file, not the slab: for slabs of 256 KiB, one
// 64 KiB piece per end with a neighbour. Changed slabs whose writes are
// still queued send what they hold now.
TEST(OocMatrix, HaloExchangeReadsOnlyTheEndRowsOfSlabsOutOfMemory) {
  using Block = dash::bp::ContainerBlock<long, 2>;
  const long rows = 128 * long(dash::size()), cols = 1024;  // rows of 8 KiB, 32 per slab
  OocMatrix m(dash::SizeSpec<2>(rows, cols), dash::DistributionSpec<2>(dash::BLOCKED, dash::NONE),
              dash::Team::All(), 4);
  m.generate(Start);
  auto changed = [](const Coords& g) { return 3 * Start(g) + 1; };
  {
    auto master = dash::bp::of(m, {1, false, {false, false}}, 1);
    ASSERT_TRUE(master.reads_payload_parts());
    master.foreach ([&](Block& b, dash::bp::Proxy&) {
      for (long i = 0; i < b.extent(0); ++i)
        for (long j = 0; j < b.extent(1); ++j)
          b(i, j) = changed({b.box().min[0] + i, b.box().min[1] + j});
    });
    auto check_halos = [&] {
      long wrong = 0;
      master.foreach_shell([&](Block& b, dash::bp::Proxy&) {
        const auto& box = b.box();
        for (long j = 0; j < b.extent(1); ++j) {
          if (box.min[0] > 0) wrong += b(-1, j) != changed({box.min[0] - 1, j});
          if (box.max[0] < rows) wrong += b(b.extent(0), j) != changed({box.max[0], j});
        }
      });
      return wrong;
    };
    dash::bp::exchange_halos(master);  // the evicted slabs' writes may still be queued
    EXPECT_EQ(check_halos(), 0);
    m.file()->flush();
    std::uint64_t expected = 0, local = 0;
    master.foreach_shell([&](Block& b, dash::bp::Proxy&) {
      local += std::uint64_t(b.box().size()) * sizeof(long);
      if (b.payload_resident()) return;
      expected += (b.neighbor(Block::direction_index({-1, 0})) >= 0 ? 64u << 10 : 0) +
                  (b.neighbor(Block::direction_index({1, 0})) >= 0 ? 64u << 10 : 0);
    });
    const auto before = m.counters();
    dash::bp::exchange_halos(master);
    const auto after = m.counters();
    EXPECT_EQ(after.bytes_read - before.bytes_read, expected) << "of " << local << " local bytes";
    EXPECT_EQ(after.bytes_written, before.bytes_written);
    EXPECT_EQ(check_halos(), 0);
  }
  dash::barrier();
}

TEST(OocMatrix, HaloWiderThanASlabIsRefused) {
  OocMatrix m(dash::SizeSpec<2>(48, 16), kBlocked, dash::Team::All(), 8);
  const int too_wide = int(m.min_slab_rows()) + 1;
  EXPECT_THROW(dash::bp::of(m, {too_wide, false, {false, false}}),
               dash::exception::InvalidArgument);
  EXPECT_NO_THROW(dash::bp::of(m, {too_wide - 1, false, {false, false}}));
  EXPECT_THROW(dash::bp::of(m, {-1, false, {false, false}}), dash::exception::InvalidArgument);
  dash::barrier();
}

// Master::write_back: the changed slabs reach the file while the master
// lives (the matrix sees them); a failed write is thrown on every unit (the
// failing unit its own error naming the file, the others RemoteFailure).
TEST(OocMatrix, WriteBackStoresTheChangedSlabsAndAgreesOnFailure) {
  for (bool fail : {false, true}) {
    SCOPED_TRACE(fail ? "the last unit's third write fails" : "no failure");
    const bool failing = fail && myid() == dash_test::nunits() - 1;
    dash_test::ScopedEnv inject("DASH_OOC_TEST_FAIL_WRITE", failing ? "3" : nullptr);
    OocMatrix m(dash::SizeSpec<2>(16, 6), kBlocked, dash::Team::All(), 2);
    m.generate(Start);                     // writes 1 and 2
    auto master = dash::bp::of(m, {}, 0);  // every slab in memory
    master.foreach ([](dash::bp::ContainerBlock<long, 2>& b, dash::bp::Proxy&) {
      for (long i = 0; i < b.extent(0); ++i)
        for (long j = 0; j < b.extent(1); ++j) b(i, j) = -b(i, j);
    });
    try {
      master.write_back();  // writes 3 and 4
      EXPECT_FALSE(fail) << "no exception";
    } catch (const dash::exception::RemoteFailure& e) {
      EXPECT_TRUE(fail && !failing) << e.what();
      EXPECT_EQ(e.unit(), dash_test::nunits() - 1) << e.what();
      EXPECT_NE(std::string(e.what()).find("dash::bp::Master::write_back"), std::string::npos);
    } catch (const dash::exception::RuntimeError& e) {
      EXPECT_TRUE(failing) << e.what();
      EXPECT_NE(std::string(e.what()).find(m.file()->path()), std::string::npos) << e.what();
    }
    if (!fail) {
      EXPECT_EQ(master.resident_blocks(), 0u) << "written back slabs leave memory";
      m.for_each([](const Coords& g, long v) { ASSERT_EQ(v, -Start(g)) << g[0] << ", " << g[1]; });
    }
  }
  dash::barrier();
}

// A local array file that cannot be made on one unit (its spill directory
// cannot be created): the constructor throws on every unit.
TEST(OocMatrix, FileThatCannotBeMadeOnOneUnitThrowsOnEvery) {
  dash::ooc::remove_spill_directory();
  const bool failing = myid() == dash_test::nunits() - 1;
  {
    dash_test::ScopedEnv dir("DASH_OOC_DIR", failing ? "/proc/no-such-dir" : nullptr);
    try {
      OocMatrix m(dash::SizeSpec<2>(8, 8), kBlocked, dash::Team::All(), 1);
      ADD_FAILURE() << "no exception";
    } catch (const dash::exception::RemoteFailure& e) {
      EXPECT_FALSE(failing) << e.what();
      EXPECT_EQ(e.unit(), dash_test::nunits() - 1);
      EXPECT_NE(std::string(e.what()).find("/proc/no-such-dir"), std::string::npos) << e.what();
    } catch (const std::exception& e) {  // the failing unit's own error
      EXPECT_TRUE(failing) << e.what();
      EXPECT_NE(std::string(e.what()).find("/proc/no-such-dir"), std::string::npos) << e.what();
    }
  }
  dash::ooc::remove_spill_directory();
  OocMatrix works(dash::SizeSpec<2>(8, 8), kBlocked, dash::Team::All(), 1);
  works.generate(Start);
  works.for_each([](const Coords& g, long v) { ASSERT_EQ(v, Start(g)); });
  dash::barrier();
}

}  // namespace
