// What the dash::io tests share: element values by global index, settings,
// filling and checking containers, and "throws on every unit".
#ifndef DASH_TESTS_DASH_IO_TEST_SUPPORT_H_
#define DASH_TESTS_DASH_IO_TEST_SUPPORT_H_

#include <dart/dart_unit_mapping.h>
#include <dash/Array.h>
#include <dash/Exception.h>
#include <dash/algorithm/Copy.h>
#include <dash/io/Pieces.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace dash_test {

inline std::int64_t Value(std::int64_t g) { return g * 1000003 + 17; }

// The bytes of the file at path ("" if it cannot be read). Local.
inline std::string Contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The (real or emulated) nodes of the run. Local.
inline int Nodes() {
  dart_unit_mapping_info_t info{};
  dart_unit_mapping_info(&info);
  return info.nodes;
}

// Each unit's pieces of a plain file in slots dealt round the units: slot s
// is [s * spacing, s * spacing + base + grow * s), filled with bytes that
// depend on s and the position; the bytes between slots are gaps. Local.
struct SlotPieces {
  std::vector<std::vector<char>> memory;  // one buffer per piece
  std::vector<dash::io::Piece> pieces;
  SlotPieces(int slots, std::uint64_t spacing, std::uint64_t base, std::uint64_t grow) {
    for (int s = myid(); s < slots; s += nunits()) {
      memory.emplace_back(std::size_t(base + grow * std::uint64_t(s)));
      for (std::size_t i = 0; i < memory.back().size(); ++i)
        memory.back()[i] = char(1 + (s * 13 + int(i % 241)) % 255);
      pieces.push_back({std::uint64_t(s) * spacing, memory.back().data(), memory.back().size()});
    }
  }
  // The same pieces over zeroed memory, to read into.
  SlotPieces Blank() const {
    SlotPieces b;
    for (const dash::io::Piece& p : pieces) {
      b.memory.emplace_back(p.bytes, char(0));
      b.pieces.push_back({p.offset, b.memory.back().data(), p.bytes});
    }
    return b;
  }

 private:
  SlotPieces() = default;
};

// Settings: aggregators, buffer bytes, tier (0 and "": the flags' or the defaults).
inline dash::io::IoSettings Io(int aggregators, std::uint64_t buffer,
                               const std::string& tier = "") {
  dash::io::IoSettings s;
  s.aggregators = aggregators;
  s.buffer_bytes = buffer;
  s.tier = tier;
  return s;
}

// Row-major index (the file's order) of the element at global index g of pattern p (whose
// own order may be column-major or tile by tile). Local.
template <class P>
std::int64_t RowMajorIndex(const P& p, std::int64_t g) {
  const auto c = p.coords(typename P::index_type(g));
  std::int64_t i = 0;
  for (std::size_t d = 0; d < c.size(); ++d) i = i * std::int64_t(p.extent(dash::dim_t(d))) + c[d];
  return i;
}

// Every element of a (read back through dash::copy, not through the file
// code) equals Value of its row-major index, on every unit.
template <class Container>
void ExpectValues(Container& a, std::int64_t shift = 0) {
  std::vector<typename Container::value_type> all(a.size());
  if (a.size() > 0) dash::copy(a.begin(), a.end(), all.data());
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::int64_t rm = RowMajorIndex(a.pattern(), std::int64_t(i));
    ASSERT_EQ(all[i], typename Container::value_type(Value(rm + shift)))
        << "element " << rm << " (row-major) of " << all.size() << " on unit " << myid();
  }
}

// Fills a's local elements with Value of their global index.
template <class T, class P>
void Fill(dash::Array<T, typename P::index_type, P>& a) {
  for (std::size_t li = 0; li < a.lsize(); ++li)
    a.lbegin()[li] = T(Value(std::int64_t(a.pattern().global(typename P::index_type(li)))));
  a.barrier();
}
// Fills a 2-D container's elements with Value of their row-major index
// (by coordinates: right for any memory order).
template <class M>
void FillMatrix(M& m) {
  const long cols = long(m.extent(1));
  for (long r = 0; r < long(m.extent(0)); ++r)
    for (long c = 0; c < cols; ++c)
      if (m.pattern().unit_at({r, c}).id == myid()) m[r][c] = Value(r * cols + c);
  m.barrier();
}
// Every element of a 2-D container (read through global references, by
// coordinates) equals Value of its row-major index, on every unit.
template <class M>
void ExpectMatrixValues(M& m) {
  const long cols = long(m.extent(1));
  long wrong = 0;  // the first mismatch is reported; every unit reaches the barrier
  for (long r = 0; r < long(m.extent(0)); ++r)
    for (long c = 0; c < cols; ++c)
      if (std::int64_t(m[r][c]) != Value(r * cols + c) && wrong++ == 0) {
        EXPECT_EQ(std::int64_t(m[r][c]), Value(r * cols + c)) << r << "," << c << " on " << myid();
      }
  EXPECT_EQ(wrong, 0) << "elements differ on unit " << myid();
  m.barrier();
}

// f must throw on every unit: E where it failed, E or RemoteFailure (the
// news of another unit's failure) elsewhere, with `text` in its message.
template <class E, class F>
void ExpectThrowEverywhere(F&& f, const std::string& text) {
  std::string what;
  bool thrown = false;
  try {
    f();
  } catch (const std::exception& e) {
    thrown = dynamic_cast<const E*>(&e) != nullptr ||
             dynamic_cast<const dash::exception::RemoteFailure*>(&e) != nullptr;
    what = e.what();
  }
  EXPECT_TRUE(thrown) << "no exception of the expected type on unit " << myid() << ": " << what;
  if (thrown && !text.empty()) {
    EXPECT_NE(what.find(text), std::string::npos) << "'" << what << "' lacks '" << text << "'";
  }
}

}  // namespace dash_test

#endif  // DASH_TESTS_DASH_IO_TEST_SUPPORT_H_
