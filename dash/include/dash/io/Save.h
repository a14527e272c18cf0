// dash::io::save and dash::io::load: a container to one file and back, on
// any pattern and any number of units.
//
//   dash::Matrix<double, 2> m(4000, 3000, dash::TILE(256), dash::TILE(256));
//   ...
//   dash::io::save(m, "/scratch/field.dash");      // collective
//   dash::Array<double> a(12000000);               // other units, pattern
//   dash::io::load("/scratch/field.dash", a);      // collective
//
// The file holds a header (element type name and size, extents, the
// writer's pattern as text, a checksum), the elements in row-major order of
// the global index space, and a checksum per chunk of them
// (dash/io/internal/ContainerFile.h). So a file written by 4 units with a
// TILE pattern loads into 3 units with BLOCKED, or into an Array of as many
// elements: load checks the element type and size and the element count
// (and, for a container of the file's rank, its extents).
//
// Two-phase aggregation: the data's chunks (DASH_IO_BUFFER_SIZE, default
// 4 MiB) are dealt in contiguous file domains to aggregator units
// (DASH_IO_AGGREGATORS of them, default one per node), each domain's
// aggregator and the buffers' memory tier chosen by the cost model
// (dash/io/CostModel.h, dash/io/Tiers.h); in each round every unit puts its
// elements of the round's chunks into the aggregators' buffers one-sidedly,
// and an aggregator writes one buffer on a helper thread while the next
// round fills the other. A load reads a chunk ahead and checks it while the
// units get their elements from the one before. Memory: two buffers per
// unit (aggregator or not) on the chosen tier.
//
// A save writes "<path>.tmp.<pid>.<host>.<16 hex digits>" (a name nobody
// can guess) and renames it to path when every chunk,
// the checksums and the header are on disk (and synced): a failure leaves
// an earlier file at path intact, and no temporary.
// With subfiling (IoSettings::subfiling = k, DASH_IO_SUBFILING) the file
// is one part per k nodes beside path, and path holds their table; the
// table's rename is the atomic step (docs/io.md: "Subfiling"). load reads both.
// With the burst buffer (IoSettings::burst_buffer) a save returns once the
// data sits in node-local files and drains to path in the background until
// dash::io::drain; loads before that read the node-local copy (docs/io.md:
// "Burst buffer"). IoSettings::aggregation = "off" (or "auto" when every
// unit's pieces are contiguous runs of at least a chunk) writes without
// aggregators (docs/io.md: "Writes without aggregation").
// The target must be a file system every aggregator reaches with POSIX
// I/O (a parallel file system on a cluster, any on one node).
//
// Errors throw on every unit (the failing unit its own exception, the
// others dash::exception::RemoteFailure): RuntimeError naming the path for
// a directory that is missing or not writable, a full disk, a missing,
// truncated or damaged file (header or chunk checksum); InvalidArgument for
// a file of another element type or size, another element count or other
// extents. After a failed load the container's contents are unspecified.
//
// | call        | cost                                                      |
// |-------------|-----------------------------------------------------------|
// | save        | collective: chunks / aggregators rounds of one-sided puts |
// |             | and a barrier; a reduce of the checksums; a few agreeing  |
// |             | allreduces                                                |
// | load        | collective: the same rounds with gets; two broadcasts     |
// | file_layout | collective: unit 0 reads the header, one broadcast        |
#ifndef DASH__IO__SAVE_H_
#define DASH__IO__SAVE_H_

#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/algorithm/internal/LocalRuns.h>
#include <dash/io/internal/ContainerFile.h>

#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace dash {
namespace io {

// The name a file gives the element type T: "int8" … "uint64", "float32",
// "float64", "float80" (long double), "bool", "complex64", "complex128",
// and "bytes<n>" for other trivially copyable types (specialise it to give
// yours a name). Compile time.
template <class T, class = void>
struct element_name {
  static_assert(std::is_trivially_copyable_v<T>,
                "dash::io saves trivially copyable elements only (their bytes)");
  static std::string get() {
    if constexpr (std::is_same_v<T, bool>) {
      return "bool";
    } else if constexpr (std::is_integral_v<T>) {
      return std::string(std::is_signed_v<T> ? "int" : "uint") + std::to_string(8 * sizeof(T));
    } else if constexpr (std::is_same_v<T, long double>) {
      return "float80";
    } else if constexpr (std::is_floating_point_v<T>) {
      return "float" + std::to_string(8 * sizeof(T));
    } else {
      return "bytes<" + std::to_string(sizeof(T)) + ">";
    }
  }
};
template <class F>
struct element_name<std::complex<F>> {
  static std::string get() { return "complex" + std::to_string(16 * sizeof(F)); }
};

// What a file of dash::io::save holds.
using FileLayout = internal::FileLayout;

// The header of the file at path: element type name and size, extents,
// the writer's pattern and unit count. Errors as load. Collective over team.
inline FileLayout file_layout(const std::string& path, Team& team = Team::All()) {
  return internal::read_container_layout(path, team.dart_id(), "dash::io::file_layout");
}

namespace internal {

template <class P, class = void>
struct has_teamspec : std::false_type {};
template <class P>
struct has_teamspec<P, std::void_t<decltype(std::declval<const P&>().teamspec().extents())>>
    : std::true_type {};

// The container's layout as a file header describes it. Local.
template <class Container>
FileLayout layout_of(const Container& c) {
  using T = typename Container::value_type;
  const auto& pattern = c.pattern();
  using P = std::decay_t<decltype(pattern)>;
  FileLayout l;
  l.type_name = element_name<std::remove_cv_t<T>>::get();
  l.element_size = sizeof(T);
  std::string ext, units;
  for (std::size_t d = 0; d < P::ndim(); ++d) {
    l.extents.push_back(std::uint64_t(pattern.extent(dim_t(d))));
    ext += (d ? "x" : "") + std::to_string(pattern.extent(dim_t(d)));
    if constexpr (has_teamspec<P>::value)
      units += (d ? "x" : "") + std::to_string(pattern.teamspec().extents()[d]);
  }
  l.pattern = std::to_string(P::ndim()) + "-D " + ext;
  if (!units.empty()) l.pattern += " over units " + units;
  l.units = std::uint64_t(pattern.team().size());
  return l;
}

template <class P, class = void>
struct has_local_blocks : std::false_type {};
template <class P>
struct has_local_blocks<P, std::void_t<decltype(std::declval<const P&>().local_nblocks()),
                                       decltype(std::declval<const P&>().local_block(0).offset(0))>>
    : std::true_type {};

// The calling unit's elements of a column-major N-D container as runs of
// the row-major file: memory runs along dimension 0, which the file
// strides over, so each stretch of a local block along dimension 0 is one
// strided run (elements a file row apart). Local, two index mappings per
// stretch (a pattern with blocks of one element along dimension 0 gives a
// run per element).
template <class Container>
std::vector<Run> column_major_runs(Container& c) {
  using T = typename Container::value_type;
  using P = typename Container::pattern_type;
  using I = typename P::index_type;
  const P& p = c.pattern();
  std::uint64_t row = sizeof(T);  // file bytes between neighbours along dimension 0
  for (std::size_t d = 1; d < P::ndim(); ++d) row *= std::uint64_t(p.extent(dim_t(d)));
  const auto me = c.team().myid();
  const auto n = std::uint64_t(c.lsize());
  const auto b0 = std::uint64_t(p.blocksize(0)), e0 = std::uint64_t(p.extent(0));
  char* base = reinterpret_cast<char*>(const_cast<T*>(c.lbegin()));
  std::vector<Run> out;
  for (std::uint64_t li = 0; li < n;) {
    const auto g = p.global(me, I(li));
    const auto g0 = std::uint64_t(g[0]);
    std::uint64_t len = std::min({b0 - g0 % b0, e0 - g0, n - li});
    if (len > 1) {  // the stretch ends where its block says, else element by element
      const auto h = p.global(me, I(li + len - 1));
      bool same = std::uint64_t(h[0]) == g0 + len - 1;
      for (std::size_t d = 1; d < P::ndim() && same; ++d) same = h[d] == g[d];
      if (!same) len = 1;
    }
    std::uint64_t offset = 0;
    for (std::size_t d = 0; d < P::ndim(); ++d)
      offset = offset * std::uint64_t(p.extent(dim_t(d))) + std::uint64_t(g[d]);
    out.push_back(
        Run{offset * sizeof(T), base + li * sizeof(T), sizeof(T), len > 1 ? row : 0, len});
    li += len;
  }
  return out;
}

// The calling unit's elements of c as runs of the file's data. Local,
// O(local runs of the pattern).
template <class Container>
std::vector<Run> runs_of(Container& c, const char* who) {
  using T = typename Container::value_type;
  using P = typename Container::pattern_type;
  (void)who;
  if constexpr (P::ndim() > 1) {
    if (P::memory_order() != ROW_MAJOR) return column_major_runs(c);
  }
  RunMerger runs;
  if constexpr (P::ndim() == 1 && has_local_blocks<P>::value) {
    // A 1-D pattern dealing blocks round the units: the full local blocks
    // are one strided run, at most one shorter last block another (O(1),
    // where walking a CYCLIC array would take a step per element).
    const P& p = c.pattern();
    const auto n = std::uint64_t(p.local_nblocks());
    char* base = reinterpret_cast<char*>(const_cast<T*>(c.lbegin()));
    if (n == 0 || c.lsize() == 0) return {};
    const auto b0 = p.local_block(0), last = p.local_block(typename P::index_type(n - 1));
    const std::uint64_t len = std::uint64_t(b0.extent(0)), first = std::uint64_t(b0.offset(0));
    const std::uint64_t stride = n > 1 ? std::uint64_t(p.local_block(1).offset(0)) - first : len;
    if (n == 1 || std::uint64_t(last.offset(0)) == first + (n - 1) * stride) {
      const std::uint64_t full = std::uint64_t(last.extent(0)) == len ? n : n - 1;
      std::vector<Run> out;
      if (full > 0)
        out.push_back(
            Run{first * sizeof(T), base, len * sizeof(T), full > 1 ? stride * sizeof(T) : 0, full});
      if (full < n)
        out.push_back(Run{std::uint64_t(last.offset(0)) * sizeof(T), base + full * len * sizeof(T),
                          std::uint64_t(last.extent(0)) * sizeof(T), 0, 1});
      return out;
    }
  }
  auto add = [&](T* b, T* e, auto file_index, auto) {
    runs.add(std::uint64_t(file_index) * sizeof(T),
             const_cast<char*>(reinterpret_cast<const char*>(b)), std::uint64_t(e - b) * sizeof(T));
  };
  if constexpr (P::ndim() == 1) {
    dash::internal::for_each_local_run(c.begin(), c.end(), add);
  } else if (c.size() > 0 && c.lbegin() != nullptr) {
    // The file is row-major whatever the pattern's global order (a TilePattern's goes tile by
    // tile): the whole matrix as a rectangle iterated row-major.
    const P& p = c.pattern();
    const std::array<typename P::index_type, P::ndim()> origin{};
    dash::internal::for_each_local_run_of_rect<true, false>(p, const_cast<T*>(c.lbegin()), origin,
                                                            p.extents(), origin, p.extents(), add);
  }
  return std::move(runs.runs());
}

}  // namespace internal

// Writes container c (dash::Array, dash::Matrix, dash::NArray of trivially
// copyable elements, any pattern, row- or column-major) to the file at path, replacing
// it when complete. Collective over c's team.
template <class Container>
IoReport save(Container& c, const std::string& path, const IoSettings& settings = {}) {
  const char* who = "dash::io::save";
  const IoSettings s = resolve_settings(settings);
  return internal::write_container_file(path, c.team(), internal::layout_of(c),
                                        internal::runs_of(c, who), s, who);
}

// Reads the file at path (written by save, from any pattern and unit count)
// into container c, which must hold elements of the same type and size and
// as many of them (with the file's rank: the same extents). Collective over
// c's team.
template <class Container>
IoReport load(const std::string& path, Container& c, const IoSettings& settings = {}) {
  const char* who = "dash::io::load";
  const IoSettings s = resolve_settings(settings);
  const dart_team_t team = c.team().dart_id();
  const FileLayout file = internal::read_container_layout(path, team, who);
  const FileLayout mine = internal::layout_of(c);
  std::string wrong;
  if (file.type_name != mine.type_name || file.element_size != mine.element_size)
    wrong = "holds elements of type " + file.type_name + " (" + std::to_string(file.element_size) +
            " bytes), the container " + mine.type_name + " (" + std::to_string(mine.element_size) +
            " bytes)";
  else if (file.data_bytes() != mine.data_bytes() ||
           (file.extents.size() == mine.extents.size() && file.extents != mine.extents))
    wrong = "holds " + file.pattern.substr(0, file.pattern.find(" over")) +
            " elements, the container " + mine.pattern.substr(0, mine.pattern.find(" over"));
  if (!wrong.empty())
    throw exception::InvalidArgument(std::string(who) + ": '" + path + "' " + wrong);
  const IoReport report =
      internal::read_container_file(path, c.team(), internal::runs_of(c, who), s, who);
  c.barrier();
  return report;
}

}  // namespace io
}  // namespace dash

#endif  // DASH__IO__SAVE_H_
