// White-box test of the block layer's wire format (dash/bp/detail/Wire.h, not public): every
// kind of record the transports write (a queue, an empty queue, a view's bytes, a queue sent
// on its own, a stored part, a failure notice) against an encoding written here by hand, and
// read back by a decoder written here.
#include <dash/bp/Serialization.h>
#include <dash/bp/detail/Wire.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

namespace wire = dash::bp::detail::wire;
using dash::bp::MemoryBuffer;

// The test's own encoding: three little-endian int64, then the bytes.
void put_int64(std::vector<unsigned char>& out, std::int64_t v) {
  const auto u = std::uint64_t(v);
  for (int b = 0; b < 8; ++b) out.push_back(static_cast<unsigned char>(u >> (8 * b)));
}
std::int64_t get_int64(const unsigned char* at) {
  std::uint64_t u = 0;
  for (int b = 7; b >= 0; --b) u = (u << 8) | at[b];
  return std::int64_t(u);
}
void put_record(std::vector<unsigned char>& out, std::int64_t from, std::int64_t to, std::int64_t n,
                const std::string& bytes) {
  put_int64(out, from);
  put_int64(out, to);
  put_int64(out, n);
  out.insert(out.end(), bytes.begin(), bytes.end());
}

struct Decoded {
  std::int64_t from, to, n;
  std::string bytes;
};
// The test's own decoder: a record carries bytes only when n >= 0.
std::vector<Decoded> decode(const unsigned char* data, std::size_t total) {
  std::vector<Decoded> out;
  for (std::size_t at = 0; at < total;) {
    Decoded d{get_int64(data + at), get_int64(data + at + 8), get_int64(data + at + 16), {}};
    at += 24;
    if (d.n > 0) {
      d.bytes.assign(reinterpret_cast<const char*>(data + at), std::size_t(d.n));
      at += std::size_t(d.n);
    }
    out.push_back(d);
  }
  return out;
}

std::vector<unsigned char> bytes_of(const MemoryBuffer& buf) {
  const auto* at = reinterpret_cast<const unsigned char*>(buf.data());
  return std::vector<unsigned char>(at, at + buf.size());
}

TEST(BlocksWire, EveryRecordKindMatchesAnIndependentEncoding) {
  ASSERT_EQ(wire::kHeaderBytes, 24u);
  const std::string queue = "halo bytes \x01\x02\x03", view(70000, 'v'), notice = "unit 3: boom";
  MemoryBuffer buf;
  wire::write_record(buf, 4, 9, queue.data(), queue.size());  // a queue
  wire::write_record(buf, 4, 10, nullptr, 0);                 // an empty queue
  wire::write_record(buf, 5, 9, view.data(), view.size());    // a view's bytes
  const std::size_t direct_at = buf.size();                   // a queue on its own
  buf.bytes().extend(wire::kHeaderBytes);
  const char* direct_data = view.data() + 5;
  wire::write_header(buf.bytes().data() + direct_at, 6, 9, wire::direct_size(direct_data, 4096));
  const std::size_t part_at = buf.size();  // a stored part
  buf.bytes().extend(wire::kHeaderBytes);
  wire::write_header(buf.bytes().data() + part_at, 7, 11, -wire::kPartMark - 123456789);
  wire::write_record(buf, wire::kFailureNotice, 3, notice.data(), notice.size());  // a notice

  const std::int64_t residue = std::int64_t(reinterpret_cast<std::uintptr_t>(direct_data) % 64);
  std::vector<unsigned char> expected;
  put_record(expected, 4, 9, std::int64_t(queue.size()), queue);
  put_record(expected, 4, 10, 0, "");
  put_record(expected, 5, 9, std::int64_t(view.size()), view);
  put_record(expected, 6, 9, -(4096 * 64 + residue), "");
  put_record(expected, 7, 11, -(std::int64_t(1) << 60) - 123456789, "");
  put_record(expected, -1, 3, std::int64_t(notice.size()), notice);
  EXPECT_EQ(bytes_of(buf), expected);

  // Read back with the library's reader and with the test's decoder.
  const std::vector<Decoded> records = decode(expected.data(), expected.size());
  ASSERT_EQ(records.size(), 6u);
  std::size_t at = 0;
  for (const Decoded& d : records) {
    const wire::Header h = wire::read_header(buf.data() + at);
    EXPECT_EQ(h.from, d.from);
    EXPECT_EQ(h.to, d.to);
    EXPECT_EQ(h.n, d.n);
    at += wire::kHeaderBytes + (d.n > 0 ? std::size_t(d.n) : 0);
  }
  EXPECT_EQ(at, buf.size());
  EXPECT_EQ(records[0].bytes, queue);
  EXPECT_EQ(records[2].bytes, view);
  EXPECT_EQ(records[5].bytes, notice);
  // A queue on its own: size and residue recovered as the receiver does.
  EXPECT_EQ(std::size_t(-records[3].n) / wire::kResidues, 4096u);
  EXPECT_EQ(std::int64_t(std::size_t(-records[3].n) % wire::kResidues), residue);
  // A stored part: below -kPartMark, its size recovered.
  EXPECT_LE(records[4].n, -wire::kPartMark);
  EXPECT_EQ(-records[4].n - wire::kPartMark, 123456789);
  // A failure notice is told apart by its `from`.
  EXPECT_EQ(records[5].from, wire::kFailureNotice);
}

TEST(BlocksWire, HeadersReadAtAnyAlignment) {
  std::vector<char> raw(wire::kHeaderBytes + 7);
  for (std::size_t shift = 0; shift < 8; ++shift) {
    wire::write_header(raw.data() + shift, -5, std::int64_t(1) << 40, -(std::int64_t(3) << 50));
    const wire::Header h = wire::read_header(raw.data() + shift);
    EXPECT_EQ(h.from, -5);
    EXPECT_EQ(h.to, std::int64_t(1) << 40);
    EXPECT_EQ(h.n, -(std::int64_t(3) << 50));
  }
}

}  // namespace
