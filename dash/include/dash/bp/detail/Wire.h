// dash::bp::detail wire format (not public): how the block layer's queues
// travel between units. A message is a sequence of records
//
//   {from, to, n}   three std::int64_t (kHeaderBytes)
//   n bytes         the queue from block `from` to block `to`
//
// with special headers:
//   n in (-kPartMark, 0)   exchange: the queue follows as a message of its
//                          own, of -n / kResidues bytes, to be received at an
//                          address with residue -n % kResidues (no bytes here)
//   n <= -kPartMark        exchange: a stored part of -(n + kPartMark) bytes
//                          follows after the packed messages (no bytes here)
//   from == kFailureNotice iexchange: unit `to` failed; n bytes of its text
//
// | call                 | cost                       |
// |----------------------|----------------------------|
// | write_record         | local: one append          |
// | read_header          | local: one copy of 24 bytes|
#ifndef DASH__BP__DETAIL__WIRE_H_
#define DASH__BP__DETAIL__WIRE_H_

#include <dash/bp/Serialization.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace dash {
namespace bp {
namespace detail {
namespace wire {

struct Header {
  std::int64_t from, to, n;
};
constexpr std::size_t kHeaderBytes = 3 * sizeof(std::int64_t);
static_assert(sizeof(Header) == kHeaderBytes, "a header is three int64");
constexpr std::int64_t kPartMark = std::int64_t(1) << 60;
constexpr std::int64_t kFailureNotice = -1;
// Queues sent on their own are received at the sender's address residue
// modulo kResidues: the shared-memory copies of both MPIs run 4x slower when
// the destination lies 1..63 bytes past the source in their pages (1 MiB on
// OpenMPI 4.1 and MPICH 4.0: 420 us against 95 us).
constexpr std::size_t kResidues = 64;

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
// Appends {from, to, n} and the n bytes at data to `out`. Local.
inline void write_record(MemoryBuffer& out, std::int64_t from, std::int64_t to, const char* data,
                         std::size_t n) {
  const Header h{from, to, std::int64_t(n)};
  out.write(&h, sizeof(h));
  out.write(data, n);
}
// The header's n of a queue of n bytes at data sent on its own: negative,
// with the residue of data.
inline std::int64_t direct_size(const char* data, std::size_t n) {
  const std::size_t residue = reinterpret_cast<std::uintptr_t>(data) % kResidues;
  return -std::int64_t(n * kResidues + residue);
}

}  // namespace wire
}  // namespace detail
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__DETAIL__WIRE_H_
