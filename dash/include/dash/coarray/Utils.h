// The coarray runtime calls, in Fortran 2008's terms as DASH names them (namespace
// dash::coarray): which image am I, how many are there, wait for all or some of them, and the
// collectives over a coarray's images (every unit is an image, numbered as in Team::All()).
//
// | call                                 | cost                                         |
// |--------------------------------------|----------------------------------------------|
// | this_image(), num_images()           | local                                        |
// | sync_all()                           | collective over Team::All() (a barrier)      |
// | sync_images(images)                  | two-sided among the listed images: each one  |
// |                                      | message to the smallest and one back         |
// | cobroadcast(coarr, master)           | collective over the coarray's team (bcast)   |
// | coreduce(coarr, op [, master])       | collective over the coarray's team (reduce   |
// |                                      | or allreduce of every unit's local part)     |
//
// sync_all() and sync_images() only order the images; they do not complete one-sided writes
// still in flight (Coarray::sync_all() and Coarray::sync_images() do, as in DASH).
#ifndef DASH__COARRAY__UTILS_H_
#define DASH__COARRAY__UTILS_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/Types.h>
#include <dash/algorithm/Operation.h>
#include <dash/internal/DartType.h>
#include <sys/types.h>

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace dash {

template <class T, class IndexType, MemArrange Arrangement>
class Coarray;

namespace coarray {

namespace internal {
// The message tag of sync_images (above the tags users are likely to take; below DART's 32767).
inline constexpr int sync_images_tag = 30010;

// Throws InvalidArgument naming `call` unless every image of `images` is a unit of Team::All().
// Local, O(n) in the list's length.
template <class Container>
void check_images(const Container& images, const char* call) {
  const long n = static_cast<long>(dash::size());
  for (const auto& image : images) {
    const long id = static_cast<long>(image);
    if (id < 0 || id >= n)
      throw exception::InvalidArgument(std::string(call) + ": image " + std::to_string(id) +
                                       " is not one of the " + std::to_string(n) + " images");
  }
}

// True if `it` is the first place of its image in `images` (a repeated image counts once).
// Local, O(position).
template <class Container, class It>
bool first_listing(const Container& images, It it) {
  for (auto earlier = images.begin(); earlier != it; ++earlier)
    if (static_cast<long>(*earlier) == static_cast<long>(*it)) return false;
  return true;
}
}  // namespace internal

// The calling unit's image number: its id in Team::All(). Local.
inline global_unit_t this_image() { return dash::myid(); }

// The number of images: the units of Team::All(). Local.
inline ssize_t num_images() { return static_cast<ssize_t>(dash::size()); }

// Waits until every image has called it. Does not complete one-sided writes
// (Coarray::sync_all() does). Collective over Team::All().
inline void sync_all() { Team::All().barrier(); }

// Waits until every image listed in `images` (ids of Team::All(), any container of integers or
// unit ids) has called it with the same list; an image not in the list returns at once, as in
// DASH; an image listed more than once counts once. Throws InvalidArgument for an id that is no
// image. Does not complete one-sided writes. Two-sided among the listed images: one message to
// the smallest id and one back.
template <class Container>
void sync_images(const Container& images) {
  static const char* const call = "dash::coarray::sync_images";
  internal::check_images(images, call);
  const long me = static_cast<long>(this_image());
  bool listed = false;
  long root = -1;
  for (const auto& image : images) {
    const long id = static_cast<long>(image);
    if (id == me) listed = true;
    if (root < 0 || id < root) root = id;
  }
  if (!listed) return;
  char token = 0;
  const dart_global_unit_t root_unit = DART_GLOBAL_UNIT_ID(static_cast<dart_unit_t>(root));
  if (me != root) {
    dash::internal::check_dart(
        dart_send(&token, 1, DART_TYPE_BYTE, internal::sync_images_tag, root_unit), call);
    dash::internal::check_dart(
        dart_recv(&token, 1, DART_TYPE_BYTE, internal::sync_images_tag, root_unit), call);
    return;
  }
  // The smallest image hears from every other one, then releases them.
  for (auto it = images.begin(); it != images.end(); ++it) {
    const long id = static_cast<long>(*it);
    if (id == root || !internal::first_listing(images, it)) continue;
    dash::internal::check_dart(dart_recv(&token, 1, DART_TYPE_BYTE, internal::sync_images_tag,
                                         DART_GLOBAL_UNIT_ID(static_cast<dart_unit_t>(id))),
                               call);
  }
  for (auto it = images.begin(); it != images.end(); ++it) {
    const long id = static_cast<long>(*it);
    if (id == root || !internal::first_listing(images, it)) continue;
    dash::internal::check_dart(dart_send(&token, 1, DART_TYPE_BYTE, internal::sync_images_tag,
                                         DART_GLOBAL_UNIT_ID(static_cast<dart_unit_t>(id))),
                               call);
  }
}

// Copies the local part of image `master` (a unit of the coarray's team) to every other
// image's local part; arrays as a whole. Throws InvalidArgument for a master outside the team
// or a coarray without memory (on every unit alike). Collective over the coarray's team.
template <class T, class I, MemArrange A>
void cobroadcast(Coarray<T, I, A>& coarr, const team_unit_t& master) {
  static const char* const call = "dash::coarray::cobroadcast";
  coarr.check_collective(master, call);
  using E = typename Coarray<T, I, A>::value_type;
  dash::internal::check_dart(
      dart_bcast(coarr.lbegin(), coarr.local_size() * sizeof(E), DART_TYPE_BYTE,
                 DART_TEAM_UNIT_ID(master.id), coarr.team().dart_id()),
      call);
}

// Combines the images' local parts element by element with `op` (dash::plus, multiply, min,
// max, bit_and, bit_or, bit_xor, or any functor with DASH's dart_operation()): with the default
// master (team_unit_t{-1}) every image holds the result afterwards; with a master (a unit of the
// coarray's team) only the master's part changes. Throws InvalidArgument for a master outside
// the team or a coarray without memory (on every unit alike). Collective over the coarray's
// team; the image that receives the result copies its local part once (one allocation).
template <class T, class I, MemArrange A, class BinaryOp>
void coreduce(Coarray<T, I, A>& coarr, const BinaryOp& op, team_unit_t master = team_unit_t{-1}) {
  static const char* const call = "dash::coarray::coreduce";
  using base_type = typename Coarray<T, I, A>::value_base_type;
  constexpr dart_datatype_t type = dash::internal::dart_datatype_of<base_type>();
  static_assert(type != DART_TYPE_UNDEFINED,
                "dash::coarray::coreduce: the element type needs a DART type (arithmetic)");
  static_assert(dash::internal::dart_operation_of<BinaryOp>::value != DART_OP_UNDEFINED,
                "dash::coarray::coreduce: op needs a DART operation (dash::plus, min, max, ...)");
  (void)op;
  const bool to_all = master.id < 0;
  coarr.check_collective(to_all ? team_unit_t{0} : master, call);
  const dart_operation_t dop = dash::internal::dart_operation_of<BinaryOp>::value;
  base_type* local = reinterpret_cast<base_type*>(coarr.lbegin());
  const std::size_t n = coarr.local_size();
  const bool receives = to_all || coarr.team().myid() == master;
  // MPI reads and writes no buffer twice: the receiving images reduce from a copy.
  std::vector<base_type> mine(receives ? n : 0);
  if (receives && n > 0) std::memcpy(mine.data(), local, n * sizeof(base_type));
  const base_type* send = receives ? mine.data() : local;
  if (to_all)
    dash::internal::check_dart(dart_allreduce(send, local, n, type, dop, coarr.team().dart_id()),
                               call);
  else
    dash::internal::check_dart(dart_reduce(send, receives ? local : nullptr, n, type, dop,
                                           DART_TEAM_UNIT_ID(master.id), coarr.team().dart_id()),
                               call);
}

}  // namespace coarray
}  // namespace dash

#endif  // DASH__COARRAY__UTILS_H_
