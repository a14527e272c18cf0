// Shared workload (workloads/stencil3d/kernel.h): the kernel of examples/stencil3d, also
// measured by bench/stencil: units on a periodic 3-D grid
// (a layout says which unit sits at each row-major position), each putting a message to its
// six face neighbours with blocking DART puts, then a barrier.
#ifndef WORKLOADS__STENCIL3D__KERNEL_H_
#define WORKLOADS__STENCIL3D__KERNEL_H_

#include <dart/dart.h>
#include <dash/Exception.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace stencil3d {

inline void check(dart_ret_t ret, const char* what) {
  dash::check_dart(ret, (std::string("stencil3d: ") + what).c_str());  // the one mapping
}

// Byte i of the message unit `unit` puts: differs between units and along the message, so a
// slot written by the wrong unit or at a wrong offset shows. Local.
inline char payload_byte(int unit, std::size_t i) {
  return static_cast<char>((std::size_t(unit) * 131u + i * 7u + i / 251u) & 0xffu);
}

// How many bytes of this unit's six slots (slot t: the message of the neighbour in direction
// t, see exchange) differ from what that neighbour put, after an exchange of `bytes` in the
// neighbourhood `to`. Local.
inline std::size_t wrong_payload_bytes(const std::array<int, 6>& to, dart_gptr_t buffer, int me,
                                       std::size_t slot_bytes, std::size_t bytes) {
  dart_gptr_t mine = buffer;
  check(dart_gptr_setunit(&mine, dart_team_unit_t{me}), "dart_gptr_setunit");
  char* base = nullptr;
  check(dart_gptr_getaddr(mine, reinterpret_cast<void**>(&base)), "dart_gptr_getaddr");
  std::size_t wrong = 0;
  for (int t = 0; t < 6; ++t)
    for (std::size_t i = 0; i < bytes; ++i)
      wrong += base[std::size_t(t) * slot_bytes + i] != payload_byte(to[std::size_t(t)], i);
  return wrong;
}

// A layout: which unit sits at each row-major grid position, and the inverse.
struct Layout {
  std::vector<dart_global_unit_t> unit_at;
  std::vector<int> position_of;
};

inline Layout make_layout(const std::vector<int>& unit_at) {
  Layout l;
  l.position_of.assign(unit_at.size(), -1);
  for (std::size_t p = 0; p < unit_at.size(); ++p) {
    l.unit_at.push_back(dart_global_unit_t{unit_at[p]});
    l.position_of[std::size_t(unit_at[p])] = int(p);
  }
  return l;
}

// The layout without remapping: position p holds the unit whose MPI_COMM_WORLD rank is p.
// Local.
inline Layout rank_order_layout(int nunits) {
  std::vector<int> unit_at(static_cast<std::size_t>(nunits));
  for (int u = 0; u < nunits; ++u) {
    int rank = 0;
    check(dart_unit_mpi_rank(dart_global_unit_t{u}, &rank), "dart_unit_mpi_rank");
    unit_at[static_cast<std::size_t>(rank)] = u;
  }
  return make_layout(unit_at);
}

// The layout of the ids in force: unit u at position u. Local.
inline Layout id_layout(int nunits) {
  std::vector<int> unit_at(static_cast<std::size_t>(nunits));
  for (int u = 0; u < nunits; ++u) unit_at[static_cast<std::size_t>(u)] = u;
  return make_layout(unit_at);
}

// The six face neighbours of unit `me` in a layout over the periodic grid dims, in the order
// -x, +x, -y, +y, -z, +z.
inline std::array<int, 6> neighbours(const Layout& l, const std::array<int, 3>& dims, int me) {
  const int p = l.position_of[std::size_t(me)];
  const std::array<int, 3> c = {p / (dims[1] * dims[2]), (p / dims[2]) % dims[1], p % dims[2]};
  std::array<int, 6> out{};
  for (int d = 0; d < 3; ++d)
    for (int s = 0; s < 2; ++s) {
      std::array<int, 3> q = c;
      q[std::size_t(d)] =
          (c[std::size_t(d)] + (s == 0 ? -1 : 1) + dims[std::size_t(d)]) % dims[std::size_t(d)];
      const int pos = (q[0] * dims[1] + q[1]) * dims[2] + q[2];
      out[std::size_t(2 * d + s)] = l.unit_at[std::size_t(pos)].id;
    }
  return out;
}

// One exchange: a put of `bytes` to each of the six neighbours `to`, into the slot of the
// opposite direction there, then a barrier. Collective.
inline void exchange(const std::array<int, 6>& to, dart_gptr_t buffer, std::size_t slot_bytes,
                     const std::vector<char>& message, std::size_t bytes) {
  for (int dir = 0; dir < 6; ++dir) {
    const int slot = dir ^ 1;
    dart_gptr_t g = buffer;
    check(dart_gptr_setunit(&g, dart_team_unit_t{to[std::size_t(dir)]}), "dart_gptr_setunit");
    check(dart_gptr_incaddr(&g, int64_t(std::size_t(slot) * slot_bytes)), "dart_gptr_incaddr");
    check(dart_put_blocking(g, message.data(), bytes, DART_TYPE_BYTE, DART_TYPE_BYTE),
          "dart_put_blocking");
  }
  check(dart_barrier(DART_TEAM_ALL), "dart_barrier");
}

// Times reps exchanges of `bytes` per message in each of the two neighbourhoods, alternating
// between them so drift in the machine hits both alike; returns the slowest unit's mean time
// of one exchange in microseconds for each. Collective.
inline std::array<double, 2> time_exchanges(const std::array<std::array<int, 6>, 2>& to,
                                            dart_gptr_t buffer, std::size_t slot_bytes,
                                            const std::vector<char>& message, std::size_t bytes,
                                            long reps) {
  std::array<double, 2> mine{0, 0};
  for (int layout = 0; layout < 2; ++layout)  // warm-up
    exchange(to[std::size_t(layout)], buffer, slot_bytes, message, bytes);
  for (long r = 0; r < reps; ++r)
    for (int k = 0; k < 2; ++k) {
      const int layout = int((r + k) % 2);  // none first on even reps, mapped first on odd
      const auto start = std::chrono::steady_clock::now();
      exchange(to[std::size_t(layout)], buffer, slot_bytes, message, bytes);
      mine[std::size_t(layout)] +=
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
              .count();
    }
  for (double& t : mine) t /= double(reps);
  std::array<double, 2> slowest{0, 0};
  check(
      dart_allreduce(mine.data(), slowest.data(), 2, DART_TYPE_DOUBLE, DART_OP_MAX, DART_TEAM_ALL),
      "dart_allreduce");
  return slowest;
}

}  // namespace stencil3d

#endif  // WORKLOADS__STENCIL3D__KERNEL_H_
