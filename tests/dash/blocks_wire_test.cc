// White-box test of the block layer's wire format (dash/bp/internal/Wire.h, not public): every
// kind of record the transports write (a reduction round's mark, a queue, an empty queue, a
// view's bytes, a queue sent on its own, a stored part, a failure notice) against an encoding
// written here by hand, and read back by the library's reader and a decoder written here.
#include <dash/bp/Serialization.h>
#include <dash/bp/internal/Wire.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

namespace wire = dash::bp::internal::wire;
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
  wire::write_header(buf, wire::kRoundMark, 7, -3);           // round 7, after 3 early queues
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
  put_record(expected, -2, 7, -3, "");
  put_record(expected, 4, 9, std::int64_t(queue.size()), queue);
  put_record(expected, 4, 10, 0, "");
  put_record(expected, 5, 9, std::int64_t(view.size()), view);
  put_record(expected, 6, 9, -(4096 * 64 + residue), "");
  put_record(expected, 7, 11, -(std::int64_t(1) << 60) - 123456789, "");
  put_record(expected, -1, 3, std::int64_t(notice.size()), notice);
  EXPECT_EQ(bytes_of(buf), expected);

  // Read back with the library's reader and with the test's decoder.
  std::vector<Decoded> records = decode(expected.data(), expected.size());
  ASSERT_EQ(records.size(), 7u);
  std::size_t next = 0;
  wire::for_each_record(buf.data(), buf.size(), [&](const wire::Header& h, const char* bytes) {
    ASSERT_LT(next, records.size());
    const Decoded& d = records[next++];
    EXPECT_EQ(h.from, d.from);
    EXPECT_EQ(h.to, d.to);
    EXPECT_EQ(h.n, d.n);
    EXPECT_EQ(std::string(bytes, d.bytes.size()), d.bytes);
  });
  EXPECT_EQ(next, records.size());
  EXPECT_EQ(records[0].from, wire::kRoundMark);
  records.erase(records.begin());
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

// The one packer of all transports: a queue's bytes and its view's as one record when both are
// small; a big view on its own after the bytes; big bytes (no view) on their own; an empty
// queue as an empty record. What goes on its own is handed to the callback, in record order.
TEST(BlocksWire, PackQueue_SplitsAtTheDirectSize) {
  const std::string small = "count+", tail = "tail", big(100, 'b');
  const std::size_t from = 64;  // parts of 64 bytes and more go on their own
  struct Case {
    wire::QueueParts parts;
    std::vector<unsigned char> records;
    std::vector<std::pair<const char*, std::size_t>> directs;
  };
  std::vector<Case> cases(4);
  cases[0].parts = {small.data(), small.size(), tail.data(), tail.size()};
  put_record(cases[0].records, 3, 8, std::int64_t(small.size() + tail.size()), small + tail);
  cases[1].parts = {small.data(), small.size(), big.data(), big.size()};
  put_record(cases[1].records, 3, 8, std::int64_t(small.size()), small);
  put_record(cases[1].records, 3, 8,
             -std::int64_t(big.size() * 64 + reinterpret_cast<std::uintptr_t>(big.data()) % 64),
             "");
  cases[1].directs = {{big.data(), big.size()}};
  cases[2].parts = {big.data(), big.size()};
  put_record(cases[2].records, 3, 8,
             -std::int64_t(big.size() * 64 + reinterpret_cast<std::uintptr_t>(big.data()) % 64),
             "");
  cases[2].directs = {{big.data(), big.size()}};
  cases[3].parts = {nullptr, 0};
  put_record(cases[3].records, 3, 8, 0, "");
  for (const Case& c : cases) {
    std::vector<char> out(wire::packed_size(c.parts, from));
    std::vector<std::pair<const char*, std::size_t>> directs;
    char* end = wire::pack_queue(out.data(), 3, 8, c.parts, from,
                                 [&](const char* d, std::size_t n) { directs.emplace_back(d, n); });
    EXPECT_EQ(end, out.data() + out.size());
    EXPECT_EQ(std::vector<unsigned char>(out.begin(), out.end()), c.records);
    EXPECT_EQ(directs, c.directs);
  }
  // Into a buffer, nothing goes on its own: the big view is copied.
  MemoryBuffer buf;
  wire::pack_queue(buf, 3, 8, cases[1].parts);
  std::vector<unsigned char> expected;
  put_record(expected, 3, 8, std::int64_t(small.size() + big.size()), small + big);
  EXPECT_EQ(bytes_of(buf), expected);
}

// A message cut inside a header or inside a record's bytes is an error, not a read past it.
TEST(BlocksWire, ReaderRejectsCutMessages) {
  MemoryBuffer buf;
  const std::string bytes = "0123456789";
  wire::write_record(buf, 1, 2, bytes.data(), bytes.size());
  auto count = [](const char* data, std::size_t n) {
    int records = 0;
    wire::for_each_record(data, n, [&](const wire::Header&, const char*) { ++records; });
    return records;
  };
  EXPECT_EQ(count(buf.data(), buf.size()), 1);
  EXPECT_EQ(count(buf.data(), 0), 0);
  EXPECT_THROW(count(buf.data(), buf.size() - 1), dash::exception::RuntimeError);
  EXPECT_THROW(count(buf.data(), wire::kHeaderBytes - 1), dash::exception::RuntimeError);
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
