// dash::bp::internal wire format (not public): how the block layer's queues
// travel between units, in exchange, iexchange, the reductions' rounds and
// all_to_all's records. A message is a sequence of records
//
//   {from, to, n}   three std::int64_t (kHeaderBytes)
//   n bytes         the queue from block `from` to block `to`
//
// Records of the same (from, to) that follow each other are one queue, their
// bytes appended. Special headers:
//   n in (-kPartMark, 0)   the queue's next bytes follow as a message of their
//                          own, of -n / kResidues bytes, to be received at an
//                          address with residue -n % kResidues (no bytes here):
//                          queues of kDirectBytes or more, enqueue_view arrays
//   n <= -kPartMark        a stored queue of -(n + kPartMark) bytes follows as
//                          a message of its own after the others (no bytes)
//   from == kFailureNotice the sender failed: `to` says how (iexchange: its
//                          unit; reduce: the kind), n bytes of its text
//   from == kRoundMark     reduce: the message of round `to`, after -n early
//                          queues (n <= 0: no bytes)
// The reductions' early queues carry their header {from, to, round} at their
// end instead, so that the queue's buffer is the message.
//
// | call                 | cost                       |
// |----------------------|----------------------------|
// | write_record         | local: one append          |
// | pack_queue           | local: one copy (or none)  |
// | read_header          | local: one copy of 24 bytes|
// | for_each_record      | local: one pass            |
#ifndef DASH__BP__INTERNAL__WIRE_H_
#define DASH__BP__INTERNAL__WIRE_H_

#include <dash/Exception.h>
#include <dash/bp/Serialization.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace dash {
namespace bp {
namespace internal {
namespace wire {

struct Header {
  std::int64_t from, to, n;
};
constexpr std::size_t kHeaderBytes = 3 * sizeof(std::int64_t);
static_assert(sizeof(Header) == kHeaderBytes, "a header is three int64");
constexpr std::int64_t kPartMark = std::int64_t(1) << 60;
constexpr std::int64_t kFailureNotice = -1;
constexpr std::int64_t kRoundMark = -2;
// Queues sent on their own are received at the sender's address residue
// modulo kResidues: the shared-memory copies of both MPIs run several times
// slower when the destination lies 1..63 bytes past the source in their pages
// (figures:
// bench/results/design_measurements.md#exchange-queues-land-at-the-senders-address-residue).
constexpr std::size_t kResidues = 64;
// Queues of at least this many bytes to another unit go as messages of their
// own, from the queue's memory into the target's incoming queue.
constexpr std::size_t kDirectBytes = std::size_t(32) << 10;

// The header at `at` (any alignment). Local.
inline Header read_header(const char* at) {
  Header h;
  std::memcpy(&h, at, sizeof(h));
  return h;
}
// Writes header {from, to, n} at `at`. Local.
inline void write_header(char* at, std::int64_t from, std::int64_t to, std::int64_t n) {
  const Header h{from, to, n};
  std::memcpy(at, &h, sizeof(h));
}
// Appends header {from, to, n} to `out`. Local.
inline void write_header(MemoryBuffer& out, std::int64_t from, std::int64_t to, std::int64_t n) {
  const Header h{from, to, n};
  out.write(&h, sizeof(h));
}
// Appends {from, to, n} and the n bytes at data to `out`. Local.
inline void write_record(MemoryBuffer& out, std::int64_t from, std::int64_t to, const char* data,
                         std::size_t n) {
  write_header(out, from, to, std::int64_t(n));
  out.write(data, n);
}
// The header's n of a queue of n bytes at data sent on its own: negative,
// with the residue of data.
inline std::int64_t direct_size(const char* data, std::size_t n) {
  const std::size_t residue = reinterpret_cast<std::uintptr_t>(data) % kResidues;
  return -std::int64_t(n * kResidues + residue);
}
// A queue to pack: n bytes at `bytes`, then view_n at `view` (an
// enqueue_view array; none: view_n == 0).
struct QueueParts {
  const char* bytes;
  std::size_t n;
  const char* view = nullptr;
  std::size_t view_n = 0;
};
// Whether pack_queue sends q's view, or else (no view) its bytes, on its own.
inline bool view_direct(const QueueParts& q, std::size_t direct_from) {
  return q.view_n >= direct_from && q.view_n > 0;
}
inline bool bytes_direct(const QueueParts& q, std::size_t direct_from) {
  return q.view_n == 0 && q.n >= direct_from;
}
// The bytes pack_queue writes for q. Local.
inline std::size_t packed_size(const QueueParts& q, std::size_t direct_from) {
  if (bytes_direct(q, direct_from)) return kHeaderBytes;
  if (view_direct(q, direct_from)) return 2 * kHeaderBytes + q.n;
  return kHeaderBytes + q.n + q.view_n;
}
// The packer of every transport: writes the records of queue (from -> to)
// at `at` (packed_size(q) bytes there) and returns their end. A part of
// direct_from bytes or more (the view; the bytes where there is no view)
// is announced (direct_size) and direct(data, n) is called for it, to be
// sent as a message of its own; the rest is copied in, as one record.
// Local; one copy of what is packed.
template <class Direct>
char* pack_queue(char* at, std::int64_t from, std::int64_t to, const QueueParts& q,
                 std::size_t direct_from, Direct&& direct) {
  if (bytes_direct(q, direct_from)) {
    write_header(at, from, to, direct_size(q.bytes, q.n));
    direct(q.bytes, q.n);
    return at + kHeaderBytes;
  }
  const bool view_alone = view_direct(q, direct_from);
  const std::size_t inline_view = view_alone ? 0 : q.view_n;
  write_header(at, from, to, std::int64_t(q.n + inline_view));
  at += kHeaderBytes;
  if (q.n > 0) std::memcpy(at, q.bytes, q.n);
  if (inline_view > 0) std::memcpy(at + q.n, q.view, inline_view);
  at += q.n + inline_view;
  if (!view_alone) return at;
  write_header(at, from, to, direct_size(q.view, q.view_n));
  direct(q.view, q.view_n);
  return at + kHeaderBytes;
}
// pack_queue at the end of `out`, nothing on its own. Local.
inline void pack_queue(MemoryBuffer& out, std::int64_t from, std::int64_t to, const QueueParts& q) {
  constexpr std::size_t kNever = ~std::size_t(0);
  pack_queue(out.bytes().extend(packed_size(q, kNever)), from, to, q, kNever,
             [](const char*, std::size_t) {});
}

// Calls f(header, bytes) on every record of the n bytes at data (bytes: the
// record's own, none where header.n < 0); throws RuntimeError where a record
// overruns them. Local.
template <class F>
void for_each_record(const char* data, std::size_t n, F&& f) {
  for (std::size_t at = 0; at < n;) {
    if (n - at < kHeaderBytes)
      throw exception::RuntimeError("dash::bp: a message ends inside a record header");
    const Header h = read_header(data + at);
    at += kHeaderBytes;
    const std::size_t bytes = h.n > 0 ? std::size_t(h.n) : 0;
    if (bytes > n - at)
      throw exception::RuntimeError("dash::bp: a record of " + std::to_string(bytes) +
                                    " bytes overruns its message");
    f(h, data + at);
    at += bytes;
  }
}

}  // namespace wire
}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__INTERNAL__WIRE_H_
