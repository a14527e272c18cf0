// dash::bp serialisation: round trips of trivially copyable values,
// vectors (bulk and element-wise), strings, maps, pairs, tuples, arrays,
// nested containers and a user type with its own specialisation; several
// values in one buffer read back in order; reading past the end or a
// corrupt count throws and reads nothing; large buffers are reused through
// the stock of internal/BufferStock.h, within its limits.
#include <dash/Exception.h>
#include <dash/bp/Serialization.h>
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

struct Particle {
  double x, y, z;
  long id;
  bool operator==(const Particle& o) const {
    return x == o.x && y == o.y && z == o.z && id == o.id;
  }
};

// A type that is not trivially copyable, serialised by its own specialisation.
struct Track {
  std::string name;
  std::vector<Particle> points;
  bool operator==(const Track& o) const { return name == o.name && points == o.points; }
};

}  // namespace

template <>
struct dash::bp::Serialization<Track> {
  static void save(MemoryBuffer& buf, const Track& t) {
    dash::bp::save(buf, t.name);
    dash::bp::save(buf, t.points);
  }
  static void load(MemoryBuffer& buf, Track& t) {
    dash::bp::load(buf, t.name);
    dash::bp::load(buf, t.points);
  }
};

namespace {

using dash::bp::MemoryBuffer;

template <class T>
T RoundTrip(const T& value) {
  MemoryBuffer buf;
  dash::bp::save(buf, value);
  T out{};
  dash::bp::load(buf, out);
  EXPECT_EQ(buf.remaining(), 0u);
  return out;
}

TEST(Serialization, RoundTrips) {
  EXPECT_EQ(RoundTrip(42), 42);
  EXPECT_EQ(RoundTrip(Particle{1.5, -2, 3.25, 7}), (Particle{1.5, -2, 3.25, 7}));
  EXPECT_EQ(RoundTrip(std::vector<double>{}), std::vector<double>{});
  EXPECT_EQ(RoundTrip(std::vector<double>{1, 2, 3}), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(RoundTrip(std::vector<bool>{}), std::vector<bool>{});
  EXPECT_EQ(RoundTrip(std::vector<bool>{true, false, false, true, true}),
            (std::vector<bool>{true, false, false, true, true}));
  EXPECT_EQ(RoundTrip(std::string()), std::string());
  EXPECT_EQ(RoundTrip(std::string("block 17\0x", 10)), std::string("block 17\0x", 10));
  std::map<int, std::string> m{{1, "one"}, {-4, ""}, {9, "nine"}};
  EXPECT_EQ(RoundTrip(m), m);
  std::pair<std::string, int> p{"p", 3};
  EXPECT_EQ(RoundTrip(p), p);
  std::tuple<int, std::string, std::vector<long>> t{5, "t", {1, 2}};
  EXPECT_EQ(RoundTrip(t), t);
  std::array<std::string, 3> a{"a", "", "c"};
  EXPECT_EQ(RoundTrip(a), a);
  std::vector<std::map<std::string, std::vector<std::pair<int, double>>>> nested(3);
  nested[0]["x"] = {{1, 0.5}, {2, 1.5}};
  nested[2][""] = {};
  nested[2]["y"] = {{-1, -0.5}};
  EXPECT_EQ(RoundTrip(nested), nested);
  Track track{"trace", {{0, 0, 0, 1}, {1, 2, 3, 2}}};
  EXPECT_EQ(RoundTrip(track), track);
  std::vector<Track> tracks{track, Track{"", {}}, track};
  EXPECT_EQ(RoundTrip(tracks), tracks);
}

TEST(Serialization, ManyValuesInOrder) {
  MemoryBuffer buf;
  for (int i = 0; i < 100; ++i) {
    dash::bp::save(buf, i);
    dash::bp::save(buf, std::string(std::size_t(i % 7), 'a' + char(i % 26)));
  }
  for (int i = 0; i < 100; ++i) {
    int v = -1;
    std::string s;
    dash::bp::load(buf, v);
    dash::bp::load(buf, s);
    EXPECT_EQ(v, i);
    EXPECT_EQ(s, std::string(std::size_t(i % 7), 'a' + char(i % 26)));
  }
  EXPECT_EQ(buf.remaining(), 0u);
  buf.rewind();
  int first = -1;
  dash::bp::load(buf, first);
  EXPECT_EQ(first, 0);
}

// extend_at_residue: the new bytes start at the asked residue, the unread
// bytes before them are kept in order (moved), for every residue and amount
// already read.
TEST(Serialization, ExtendAtResidueKeepsTheUnreadBytes) {
  for (std::size_t residue = 0; residue < 64; residue += 7) {
    for (std::size_t read = 0; read <= 3; ++read) {
      MemoryBuffer buf;
      for (int k = 0; k < 5; ++k) dash::bp::save(buf, k);
      for (std::size_t k = 0; k < read; ++k) {
        int x = -1;
        dash::bp::load(buf, x);
        EXPECT_EQ(x, int(k));
      }
      char* at = buf.extend_at_residue(100, residue, 64);
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(at) % 64, residue);
      EXPECT_EQ(at + 100, buf.data() + buf.size());
      for (int k = 0; k < 100; ++k) at[k] = char(k);
      EXPECT_EQ(buf.remaining(), (5 - read) * sizeof(int) + 100);
      for (std::size_t k = read; k < 5; ++k) {
        int x = -1;
        dash::bp::load(buf, x);
        EXPECT_EQ(x, int(k)) << "residue " << residue;
      }
      for (int k = 0; k < 100; ++k) {
        char c = 0;
        dash::bp::load(buf, c);
        ASSERT_EQ(c, char(k));
      }
    }
  }
}

TEST(Serialization, ReadingPastTheEndThrows) {
  MemoryBuffer buf;
  dash::bp::save(buf, 1);
  double d = 0;
  EXPECT_THROW(dash::bp::load(buf, d), dash::exception::InvalidArgument);
  EXPECT_EQ(buf.position(), 0u) << "a failed read reads nothing";
  int i = 0;
  dash::bp::load(buf, i);
  EXPECT_EQ(i, 1);
  // A count larger than the bytes left (a corrupt or truncated buffer).
  MemoryBuffer bad;
  dash::bp::save(bad, std::uint64_t(1) << 40);
  std::vector<double> v;
  EXPECT_THROW(dash::bp::load(bad, v), dash::exception::InvalidArgument);
  bad.rewind();
  std::string s;
  EXPECT_THROW(dash::bp::load(bad, s), dash::exception::InvalidArgument);
  // A truncated vector of strings.
  MemoryBuffer cut;
  dash::bp::save(cut, std::vector<std::string>{"abc", "def"});
  cut.bytes().resize(cut.size() - 2);
  std::vector<std::string> vs;
  EXPECT_THROW(dash::bp::load(cut, vs), dash::exception::InvalidArgument);
}

}  // namespace

namespace {

using dash::bp::Bytes;
using dash::bp::internal::BufferStock;

// Takes and frees every kept buffer.
void EmptyStock() {
  for (auto b = BufferStock::take(BufferStock::kMinBytes); b.data != nullptr;
       b = BufferStock::take(BufferStock::kMinBytes))
    dash::bp::internal::release_bytes(b.data, b.capacity);
}

// While a BufferStock::Short lives (a master under a memory-block limit holds one), the stock
// keeps at most kShortBuffers buffers of kShortSmallFrom bytes or more, and smaller ones up to
// kShortSmallBytes: those beyond go at once, and later ones are not kept; with the last Short
// gone it keeps up to kMaxBuffers again.
TEST(BufferStock, ShortOfMemory_KeepsOneLargeAndSmallOnesUpToABound) {
  EmptyStock();
  const std::size_t mib = std::size_t(1) << 20;
  auto release_many = [&](std::size_t n, std::size_t bytes = std::size_t(1) << 20) {
    std::vector<Bytes> many(n);
    for (Bytes& b : many) b.reserve(bytes);
  };
  release_many(6);
  EXPECT_EQ(BufferStock::kept_bytes(), 6 * mib);
  {
    BufferStock::Short first;
    EXPECT_EQ(BufferStock::kept_bytes(), BufferStock::kShortBuffers * mib);
    {
      BufferStock::Short second;
      BufferStock::Short moved(std::move(second));  // still one more user, not two
      release_many(5);
      EXPECT_EQ(BufferStock::kept_bytes(), BufferStock::kShortBuffers * mib);
    }
    release_many(5);
    EXPECT_EQ(BufferStock::kept_bytes(), BufferStock::kShortBuffers * mib) << "first still lives";
    // Small ones beside it, up to kShortSmallBytes; the large one stays.
    static_assert(BufferStock::kShortSmallFrom > mib / 4 &&
                  BufferStock::kShortSmallBytes % (mib / 4) == 0);
    release_many(BufferStock::kShortSmallBytes / (mib / 4) + 3, mib / 4);
    EXPECT_EQ(BufferStock::kept_bytes(),
              BufferStock::kShortBuffers * mib + BufferStock::kShortSmallBytes);
    release_many(2);
    EXPECT_EQ(BufferStock::kept_bytes(),
              BufferStock::kShortBuffers * mib + BufferStock::kShortSmallBytes)
        << "a large one replaces the large one";
  }
  EmptyStock();
  release_many(6);
  EXPECT_EQ(BufferStock::kept_bytes(), 6 * mib);
  EmptyStock();
}

// The VmFlags line of the mapping of this process that holds `at` ("" if none is found).
std::string VmFlagsOf(const void* at) {
  std::ifstream smaps("/proc/self/smaps");
  const auto where = reinterpret_cast<std::uintptr_t>(at);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    std::uintptr_t lo = 0, hi = 0;
    char dash_sign = 0;
    std::istringstream range(line);
    if (range >> std::hex >> lo >> dash_sign >> hi && dash_sign == '-') {
      inside = lo <= where && where < hi;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

// Byte buffers of 4 MiB and more are advised onto transparent huge pages (VmFlags "hg"), also
// when grown there; smaller mappings are not.
TEST(ByteMemory, LargeMappingsAreAdvisedOntoHugePages) {
  if (!std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled"))
    GTEST_SKIP() << "a kernel without transparent huge pages";
  const std::size_t mib = std::size_t(1) << 20;
  std::size_t capacity = 0;
  char* large = dash::bp::internal::allocate_bytes(8 * mib, capacity);
  EXPECT_NE(VmFlagsOf(large + 4 * mib).find(" hg"), std::string::npos) << VmFlagsOf(large);
  std::size_t small_capacity = 0;
  char* small = dash::bp::internal::allocate_bytes(mib, small_capacity);
  EXPECT_EQ(VmFlagsOf(small).find(" hg"), std::string::npos) << VmFlagsOf(small);
  small = dash::bp::internal::reallocate_bytes(small, small_capacity, 16 * mib);
  EXPECT_NE(VmFlagsOf(small + 8 * mib).find(" hg"), std::string::npos) << VmFlagsOf(small);
  dash::bp::internal::release_bytes(large, capacity);
  dash::bp::internal::release_bytes(small, small_capacity);
}

// A mapping grows with its bytes kept: one of a size that is no whole number of huge pages
// (advised whole, so one kernel mapping), and one advised in part by someone else (several
// kernel mappings, which mremap refuses: copied instead).
TEST(ByteMemory, MappingsGrowWithTheirBytes_AlsoWhenAdvisedInParts) {
  const std::size_t mib = std::size_t(1) << 20;
  for (const bool split : {false, true}) {
    std::size_t capacity = 0;
    char* data = dash::bp::internal::allocate_bytes(4 * mib + mib / 2, capacity);
    for (std::size_t i = 0; i < capacity; ++i) data[i] = char(i * 7 + 3);
    if (split) madvise(data + mib, mib, MADV_NOHUGEPAGE);
    const std::size_t before = capacity;
    data = dash::bp::internal::reallocate_bytes(data, capacity, 9 * mib + 5);
    ASSERT_GE(capacity, 9 * mib + 5) << "split " << split;
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < before; ++i) wrong += data[i] != char(i * 7 + 3);
    EXPECT_EQ(wrong, 0u) << "split " << split;
    data[capacity - 1] = 1;  // the grown part is writable
    dash::bp::internal::release_bytes(data, capacity);
  }
}

// Large buffers go back to the stock and the next one of that size reuses the memory; small
// ones, and ones beyond the stock's limit, are freed; the stock never holds more than its
// limits; a taken buffer is the smallest that fits.
TEST(BufferStock, LargeBytesAreReusedSmallAndHugeOnesAreNot) {
  EmptyStock();  // buffers of other tests
  const std::size_t mib = std::size_t(1) << 20;
  const char* first = nullptr;
  {
    Bytes b;
    b.reserve(mib);
    first = b.data();
  }
  EXPECT_EQ(BufferStock::kept_bytes(), mib);
  {
    Bytes b;
    b.resize(mib - 100);  // a smaller first allocation reuses the kept buffer
    EXPECT_EQ(b.data(), first);
    EXPECT_EQ(b.capacity(), mib);
    EXPECT_EQ(BufferStock::kept_bytes(), 0u);
  }
  {
    Bytes small;
    small.reserve(BufferStock::kMinBytes - 1);
  }
  EXPECT_EQ(BufferStock::kept_bytes(), mib) << "a small buffer was kept";
  // Many large buffers at once: at most kMaxBuffers kept.
  {
    std::vector<Bytes> many(BufferStock::kMaxBuffers + 4);
    for (Bytes& b : many) b.reserve(mib);
  }
  EXPECT_LE(BufferStock::kept_bytes(), BufferStock::kMaxBuffers * mib);
  EXPECT_GE(BufferStock::kept_bytes(), mib);
  // Best fit: of a 1 MiB and a 3 MiB buffer, a request for 2 MiB gets the 3 MiB one, a
  // request for 512 KiB the 1 MiB one.
  EmptyStock();
  {
    Bytes one, three;
    one.reserve(mib);
    three.reserve(3 * mib);
  }
  BufferStock::Buffer two = BufferStock::take(2 * mib);
  EXPECT_EQ(two.capacity, 3 * mib);
  BufferStock::Buffer half = BufferStock::take(mib / 2);
  EXPECT_EQ(half.capacity, mib);
  EXPECT_EQ(BufferStock::take(mib / 2).data, nullptr) << "nothing left to take";
  BufferStock::give(two.data, two.capacity);
  BufferStock::give(half.data, half.capacity);
  // A buffer over the total limit is freed, not kept.
  const std::size_t kept = BufferStock::kept_bytes();
  {
    Bytes huge;
    huge.reserve(BufferStock::kMaxBytes + 1);
  }
  EXPECT_EQ(BufferStock::kept_bytes(), kept) << "a buffer over the limit was kept";
  // The byte limit: a buffer that would take the stock past kMaxBytes makes the oldest go.
  EmptyStock();
  const std::size_t big = BufferStock::kMaxBytes / 2 + mib;
  std::size_t older_capacity = 0, newer_capacity = 0;  // never touched: no memory used
  char* older = dash::bp::internal::allocate_bytes(big, older_capacity);
  char* newer = dash::bp::internal::allocate_bytes(big, newer_capacity);
  BufferStock::give(older, older_capacity);
  BufferStock::give(newer, newer_capacity);
  EXPECT_EQ(BufferStock::kept_bytes(), newer_capacity);
  BufferStock::Buffer left = BufferStock::take(big);
  EXPECT_EQ(left.data, newer) << "the newer buffer stays, the older one goes";
  dash::bp::internal::release_bytes(left.data, left.capacity);
}

}  // namespace
