// dash::io::hdf5::StoreHDF: DASH's interface to HDF5 files -- StoreHDF::write
// and StoreHDF::read of a dash::Array or dash::Matrix, steered by
// hdf5_options -- over this library's collective transfer (SaveLoad.h).
//
//   namespace dio = dash::io::hdf5;
//   dio::hdf5_options opts;                  // as below
//   opts.overwrite_file = false;             // add to the file instead of replacing it
//   dio::StoreHDF::write(array, "out.h5", "group/data", opts);  // collective
//   dash::Array<int> back;                   // no memory: it gets the stored pattern
//   dio::StoreHDF::read(back, "out.h5", "group/data");          // collective
//
// The dataset holds the container's elements at their global coordinates
// (row-major, the container's extents), so any pattern and unit count
// reads it back. hdf5_options:
//
// | field                | default        | what it does                             |
// |----------------------|----------------|------------------------------------------|
// | overwrite_file       | true           | write: the file is replaced by a new one |
// |                      |                | (false: datasets are added to it)        |
// | modify_dataset       | false          | write: a dataset of that name is written |
// |                      |                | into (same extents and element type);    |
// |                      |                | false: it is an error, nothing written   |
// | store_pattern        | true           | write: the pattern's shape is kept as an |
// |                      |                | attribute of the dataset (below)         |
// | restore_pattern      | true           | read into a container without memory:    |
// |                      |                | allocate it with the stored shape        |
// | pattern_metadata_key | "DASH_PATTERN" | the attribute's name                     |
//
// The pattern attribute is DASH's: 4 x N longs -- per dimension the extent,
// then the unit grid's extent, then the number of blocks, then the block
// extent -- so files written by DASH restore here and the other way round.
// A container without memory (size 0) read from a dataset gets a pattern of
// its own type: with the attribute (and restore_pattern), TILE(block extent)
// in every dimension on the stored unit grid (on the team's default grid if
// the stored one has another number of units), which, for the pattern type
// that wrote it, deals every element to the unit that held it; without it,
// the type's default distribution of the dataset's extents. The irregular
// patterns (CSRPattern, LoadBalancePattern: a size per unit) neither store
// nor restore the attribute. A container with memory keeps its pattern: the
// elements are redistributed by their coordinates.
//
// A type converter (type_converter_fun_type) returns a new HDF5 type for the
// element type, e.g. a compound type for a struct; it is called once per
// write or read, and the type is closed after it. Without one, HDF5's
// native integer and floating types are used, and opaque bytes for other
// trivially copyable types.
//
// Differences from DASH: a dataset that exists is refused unless
// modify_dataset is set (DASH's HDF5 call fails there too, with HDF5's
// message); the written file must be a new name or a regular file of the
// caller's in a directory no other user can rearrange (see SaveLoad.h).
//
// | call            | cost                                                   |
// |-----------------|--------------------------------------------------------|
// | StoreHDF::write | collective: open/create, one collective H5Dwrite, the  |
// |                 | attribute; local O(local elements) staging copy        |
// | StoreHDF::read  | collective: one collective H5Dread; a container        |
// |                 | without memory: one more open for the shape, allocate  |
#ifndef DASH__IO__HDF5__STORAGE_DRIVER_H_
#define DASH__IO__HDF5__STORAGE_DRIVER_H_

#include <dash/Distribution.h>
#include <dash/Exception.h>
#include <dash/Types.h>
#include <dash/io/hdf5/SaveLoad.h>
#include <dash/pattern/DistributionSpec.h>
#include <dash/pattern/SizeSpec.h>
#include <dash/pattern/TeamSpec.h>
#include <dash/pattern/internal/IrregularPattern.h>
#include <hdf5.h>

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace dash {
namespace io {
namespace hdf5 {

// How an OutputStream opens its file: no_flags replaces the file at its
// first write, app adds to it.
enum class DeviceMode : std::uint16_t { no_flags = 0x0, app = 0x1 };

// Makes a new HDF5 type for a container's elements (closed after use).
using type_converter_fun_type = std::function<hid_t()>;

// What StoreHDF::write and read do with files, datasets and patterns (see
// the table above).
struct hdf5_options {
  bool overwrite_file = true;
  bool modify_dataset = false;
  bool store_pattern = true;
  bool restore_pattern = true;
  std::string pattern_metadata_key = "DASH_PATTERN";
};

namespace internal {

// Whether pattern type P has a unit grid, blocks and block extents to store.
template <class P, class = void>
struct has_block_shape : std::false_type {};
template <class P>
struct has_block_shape<P, std::void_t<decltype(std::declval<const P&>().teamspec().extent(0)),
                                      decltype(std::declval<const P&>().blockspec().extent(0)),
                                      decltype(std::declval<const P&>().blocksize(0))>>
    : std::true_type {};

// Whether TILE(block extent) on the unit grid gives a pattern of type P the
// mapping it had: not for the irregular patterns (CSRPattern,
// LoadBalancePattern: a size per unit).
template <class P>
constexpr bool shape_restores_v =
    has_block_shape<P>::value && !dash::internal::is_irregular_pattern_v<P>;

// DASH's pattern attribute of p: extents, unit grid, blocks, block extents
// (N longs each); empty for patterns whose shape does not restore them. Local.
template <class P>
std::vector<long> pattern_attribute(const P& p) {
  constexpr dim_t N = P::ndim();
  if constexpr (!shape_restores_v<P>) {
    return {};
  } else {
    std::vector<long> v(4 * N);
    const auto blocks = p.blockspec();
    for (dim_t d = 0; d < N; ++d) {
      v[d] = long(p.extent(d));
      v[N + d] = long(p.teamspec().extent(d));
      v[2 * N + d] = long(blocks.extent(d));
      v[3 * N + d] = long(p.blocksize(d));
    }
    return v;
  }
}

// Allocates container c (which has no memory) for a dataset of extents
// shape.dims: with the stored pattern attribute if `restore` and it fits,
// else with its pattern type's default distribution. Collective over c's
// team.
template <class Container>
void allocate_for_dataset(Container& c, const DatasetShape& shape, bool restore, const char* who,
                          const std::string& file, const std::string& dataset) {
  using P = typename Container::pattern_type;
  using I = typename P::index_type;
  constexpr dim_t N = P::ndim();
  using Size = SizeSpec<N, I>;
  using Grid = TeamSpec<N, I>;
  if (shape.dims.size() != std::size_t(N))
    throw exception::InvalidArgument(std::string(who) + ": dataset '" + dataset + "' of '" + file +
                                     "' has " + std::to_string(shape.dims.size()) +
                                     " dimensions, the container " + std::to_string(N));
  std::array<typename Size::size_type, N> ext{};
  for (dim_t d = 0; d < N; ++d) ext[d] = typename Size::size_type(shape.dims[d]);
  const Size size(ext);
  const std::vector<long>& a = shape.attribute;
  bool stored =
      shape_restores_v<P> && restore && shape.has_attribute && a.size() == std::size_t(4 * N);
  for (dim_t d = 0; stored && d < N; ++d)
    stored = a[d] == long(ext[d]) && a[N + d] > 0 && a[3 * N + d] > 0;
  if constexpr (std::is_constructible_v<P, Size, DistributionSpec<N>, Grid, Team&>) {
    if (stored) {
      DistributionSpec<N> dist;
      std::array<typename Grid::size_type, N> grid{};
      long units = 1;
      for (dim_t d = 0; d < N; ++d) {
        dist[d] = TILE(default_size_t(a[3 * N + d]));
        grid[d] = typename Grid::size_type(a[N + d]);
        units *= a[N + d];
      }
      const Grid teamspec = units == long(c.team().size()) ? Grid(grid) : Grid(dist, c.team());
      c.allocate(P(size, dist, teamspec, c.team()));
      return;
    }
    const DistributionSpec<N> dist;
    c.allocate(P(size, dist, Grid(dist, c.team()), c.team()));
  } else {
    throw exception::InvalidArgument(std::string(who) + ": the container has no memory and its " +
                                     "pattern type cannot be made from extents: allocate it " +
                                     "before reading '" + dataset + "'");
  }
}

// The element type to use: the converter's (owned) or the default.
template <class T>
ElementType element_type(const type_converter_fun_type& converter, const std::string& who) {
  if (converter) {
    const hid_t id = converter();
    if (id < 0) throw exception::InvalidArgument(who + ": the type converter returned no type");
    return ElementType(id, true);
  }
  bool made = false;
  const hid_t id = file_type<T>(&made);
  return ElementType(id, made);
}

}  // namespace internal

// DASH's HDF5 storage driver: whole containers to and from datasets.
class StoreHDF {
 public:
  using hdf5_options = dash::io::hdf5::hdf5_options;
  using type_converter_fun_type = dash::io::hdf5::type_converter_fun_type;

  // Writes container c as dataset `dataset` (a path; missing groups are
  // created) of the HDF5 file `file`, as `options` say. Collective over c's
  // team.
  template <class Container>
  static void write(Container& c, const std::string& file, const std::string& dataset,
                    hdf5_options options = hdf5_options(),
                    type_converter_fun_type converter = type_converter_fun_type()) {
    const char* who = "dash::io::hdf5::StoreHDF::write";
    internal::ElementType type =
        internal::element_type<typename Container::value_type>(converter, who);
    internal::WriteMode mode;
    mode.new_file = options.overwrite_file;
    mode.into_existing = options.modify_dataset;
    mode.refuse_existing = !options.modify_dataset;
    if (options.store_pattern) {
      mode.values = internal::pattern_attribute(c.pattern());
      if (!mode.values.empty()) mode.attribute = options.pattern_metadata_key;
    }
    internal::write_container(c, file, dataset, who, type.id, mode);
  }

  // Reads dataset `dataset` of the HDF5 file `file` into container c; a
  // container without memory is allocated first (see the header comment).
  // Collective over c's team.
  template <class Container>
  static void read(Container& c, const std::string& file, const std::string& dataset,
                   hdf5_options options = hdf5_options(),
                   type_converter_fun_type converter = type_converter_fun_type()) {
    const char* who = "dash::io::hdf5::StoreHDF::read";
    if (c.size() == 0) {
      const internal::DatasetShape shape = internal::dataset_shape(
          c.team(), file, dataset, who,
          options.restore_pattern ? options.pattern_metadata_key : std::string());
      internal::allocate_for_dataset(c, shape, options.restore_pattern, who, file, dataset);
    }
    internal::ElementType type =
        internal::element_type<typename Container::value_type>(converter, who);
    internal::read_container(file, dataset, c, who, type.id);
  }
};

}  // namespace hdf5
}  // namespace io
}  // namespace dash

#endif  // DASH__IO__HDF5__STORAGE_DRIVER_H_
