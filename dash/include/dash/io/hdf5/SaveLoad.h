// dash::io::hdf5::save and load: a container as a dataset of an HDF5 file,
// written and read collectively through parallel HDF5 (MPI-IO), so results
// open in h5py, ParaView and VisIt. Included by <dash/io/Hdf5.h> (and by
// DASH's <dash/io/HDF5.h>, which adds StoreHDF and the HDF5 streams).
//
//   #include <dash/io/Hdf5.h>   // parallel HDF5: link dash::hdf5 (find_package(dash
//                               // COMPONENTS hdf5)) or use pkg-config dash-hdf5
//   dash::Matrix<double, 2> m(1000, 800, dash::TILE(100), dash::TILE(100));
//   dash::io::hdf5::save(m, "out.h5", "/temperature");   // collective
//   dash::io::hdf5::load("out.h5", "/temperature", m2);   // collective, any pattern
//
// The dataset has the container's extents and element type (HDF5's native
// integer and floating types; other trivially copyable types as opaque
// bytes of their size). save creates the file if it is missing and
// replaces a dataset of that name (groups on its path are created); load
// reads into a container of any pattern and unit count with the same
// extents (or, for another rank, as many elements) and a matching type.
// Each unit selects its elements as hyperslabs (one per strided run of its
// local blocks where the layout allows it, else one per row piece) and
// moves them with one collective H5Dwrite / H5Dread through a staging
// buffer in file order.
//
// A file that is written into must be a new name or a regular file of the
// caller's in a directory no other user can rearrange (as for
// dash::io::save): a symlink or another user's file is refused on every
// unit before HDF5 opens anything.
//
// Header-only: only programs that include it need HDF5 (the matching MPI
// flavour: libhdf5-openmpi-dev or libhdf5-mpich-dev on Debian).
//
// Errors throw on every unit: RuntimeError naming the file and the HDF5
// call that failed (a missing file or dataset, an unwritable directory) or
// why the file may not be written; InvalidArgument for another element type
// or other extents.
//
// | call | cost                                                         |
// |------|--------------------------------------------------------------|
// | save | collective: HDF5's collective create/open and one collective |
// |      | H5Dwrite; local O(elements) staging copy                     |
// | load | collective: the same with H5Dread                            |
#ifndef DASH__IO__HDF5__SAVE_LOAD_H_
#define DASH__IO__HDF5__SAVE_LOAD_H_

#include <dart/dart_mpi.h>
#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/internal/Failure.h>
#include <dash/io/Save.h>
#include <dash/io/internal/SaveTarget.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <queue>
#include <string>
#include <type_traits>
#include <vector>

namespace dash {
namespace io {
namespace hdf5 {

namespace internal {

// An HDF5 handle closed by `close` when it goes.
struct Handle {
  hid_t id = -1;
  herr_t (*close)(hid_t) = nullptr;
  Handle(hid_t i, herr_t (*c)(hid_t)) : id(i), close(c) {}
  ~Handle() {
    if (id >= 0 && close) close(id);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
};

// Throws RuntimeError if an HDF5 call returned a negative value. Local.
inline hid_t check(hid_t ret, const std::string& who, const char* call, const std::string& file) {
  if (ret < 0) throw exception::RuntimeError(who + ": " + call + " failed on '" + file + "'");
  return ret;
}

// The file type of T: a native integer or floating type, else opaque bytes
// (a new type the caller closes: *made set). Local.
template <class T>
hid_t file_type(bool* made) {
  *made = false;
  if constexpr (std::is_same_v<T, float>) return H5T_NATIVE_FLOAT;
  if constexpr (std::is_same_v<T, double>) return H5T_NATIVE_DOUBLE;
  if constexpr (std::is_same_v<T, long double>) return H5T_NATIVE_LDOUBLE;
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    constexpr bool s = std::is_signed_v<T>;
    if constexpr (sizeof(T) == 1) return s ? H5T_NATIVE_INT8 : H5T_NATIVE_UINT8;
    if constexpr (sizeof(T) == 2) return s ? H5T_NATIVE_INT16 : H5T_NATIVE_UINT16;
    if constexpr (sizeof(T) == 4) return s ? H5T_NATIVE_INT32 : H5T_NATIVE_UINT32;
    if constexpr (sizeof(T) == 8) return s ? H5T_NATIVE_INT64 : H5T_NATIVE_UINT64;
  }
  *made = true;
  return H5Tcreate(H5T_OPAQUE, sizeof(T));
}

// The calling unit's elements in file order: each piece (element offset,
// memory, elements) of its runs, merged over runs by offset.
template <class F>
void each_piece_in_order(const std::vector<dash::io::internal::Run>& runs, std::size_t elem,
                         F&& f) {
  using Next = std::pair<std::uint64_t, std::size_t>;  // offset of a run's next piece, run
  std::priority_queue<Next, std::vector<Next>, std::greater<Next>> next;
  std::vector<std::uint64_t> k(runs.size(), 0);
  for (std::size_t r = 0; r < runs.size(); ++r) next.push({runs[r].offset, r});
  while (!next.empty()) {
    const std::size_t r = next.top().second;
    next.pop();
    const dash::io::internal::Run& run = runs[r];
    // The pieces of this run before the next run's first: all at once.
    const std::uint64_t limit = next.empty() ? ~std::uint64_t(0) : next.top().first;
    do {
      f((run.offset + k[r] * run.stride) / elem, run.data + k[r] * run.len, run.len / elem);
      ++k[r];
    } while (k[r] < run.count && run.offset + k[r] * run.stride < limit);
    if (k[r] < run.count) next.push({run.offset + k[r] * run.stride, r});
  }
}

// Selects the calling unit's elements in `space` (extents ext, row-major):
// a strided run along the only or the last dimension in one hyperslab,
// other pieces as row pieces. Local.
inline void select_runs(hid_t space, const std::vector<hsize_t>& ext,
                        const std::vector<dash::io::internal::Run>& runs, std::size_t elem,
                        const std::string& who, const std::string& file) {
  check(H5Sselect_none(space), who, "H5Sselect_none", file);
  const std::size_t n = ext.size();
  const hsize_t cols = ext[n - 1];
  auto add = [&](const std::vector<hsize_t>& start, const std::vector<hsize_t>& stride,
                 const std::vector<hsize_t>& count, const std::vector<hsize_t>& block) {
    check(H5Sselect_hyperslab(space, H5S_SELECT_OR, start.data(), stride.data(), count.data(),
                              block.data()),
          who, "H5Sselect_hyperslab", file);
  };
  // Coordinates of linear element index g.
  auto coords = [&](hsize_t g) {
    std::vector<hsize_t> c(n);
    for (std::size_t d = n; d-- > 0;) c[d] = g % ext[d], g /= ext[d];
    return c;
  };
  std::vector<hsize_t> ones(n, 1);
  for (const dash::io::internal::Run& r : runs) {
    const hsize_t first = r.offset / elem, len = r.len / elem, count = r.count;
    const hsize_t stride = count > 1 ? r.stride / elem : 0;
    std::vector<hsize_t> c0 = coords(first);
    if (count > 1 && n == 1) {
      add(c0, {stride}, {count}, {len});
      continue;
    }
    if (count > 1 && n == 2 && stride % cols == 0 && c0[1] + len <= cols) {
      add(c0, {stride / cols, 1}, {count, 1}, {1, len});
      continue;
    }
    for (hsize_t k = 0; k < count; ++k) {
      hsize_t g = first + k * stride, left = len;
      while (left > 0) {  // row by row
        std::vector<hsize_t> c = coords(g);
        const hsize_t take = std::min(left, cols - c[n - 1]);
        std::vector<hsize_t> block = ones;
        block[n - 1] = take;
        add(c, ones, ones, block);
        g += take, left -= take;
      }
    }
  }
}

// What the calls share: the file access over the team's communicator, the
// dataspace's extents, the calling unit's runs (bytes) and element size.
struct Access {
  std::string who, file;
  MPI_Comm comm = MPI_COMM_NULL;
  std::vector<hsize_t> ext;
  std::vector<dash::io::internal::Run> runs;
  std::size_t elem = 1;
  std::size_t local = 0;  // bytes of the calling unit

  Access(Team& team, std::string w, std::string f, std::vector<dash::io::internal::Run> r,
         std::size_t element_bytes)
      : who(std::move(w)), file(std::move(f)), runs(std::move(r)), elem(element_bytes) {
    check_dart(dart_team_mpi_comm(team.dart_id(), &comm), who.c_str());
    std::sort(runs.begin(), runs.end(),
              [](const auto& a, const auto& b) { return a.offset < b.offset; });
    for (const auto& x : runs) local += std::size_t(x.count * x.len);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors become exceptions, not prints
  }
  hid_t fapl() const {
    const hid_t f = H5Pcreate(H5P_FILE_ACCESS);
    check(f, who, "H5Pcreate", file);
    check(H5Pset_fapl_mpio(f, comm, MPI_INFO_NULL), who, "H5Pset_fapl_mpio", file);
    return f;
  }
  // The file opened for reading. Collective.
  hid_t open_for_reading() const {
    Handle p(fapl(), H5Pclose);
    return check(H5Fopen(file.c_str(), H5F_ACC_RDONLY, p.id), who, "H5Fopen", file);
  }
  // Dataset `name` of open file f. Collective.
  hid_t open_dataset(hid_t f, const std::string& name) const {
    return check(H5Dopen2(f, name.c_str(), H5P_DEFAULT), who,
                 ("H5Dopen2 of '" + name + "'").c_str(), file);
  }
  // The file opened for writing: created if missing; if it is there,
  // replaced by a new, empty one (truncate) or opened as it is. Refused on
  // every unit (RuntimeError) if unit 0 finds it may not be written (a
  // symlink, another user's file, a directory anyone can rearrange).
  // Collective.
  hid_t open_for_writing(Team& team, bool truncate = false) const {
    int exists = 0;
    std::string refused;
    if (team.myid().id == 0) {
      refused = dash::internal::check_save_target(file);
      exists = access(file.c_str(), F_OK) == 0;
    }
    int state[2] = {exists, refused.empty() ? 0 : 1};
    check_dart(dart_bcast(state, 2, DART_TYPE_INT, dart_team_unit_t{0}, team.dart_id()),
               who.c_str());
    if (state[1])
      throw exception::RuntimeError(
          who + ": " +
          dash::internal::broadcast_failure_message(refused, 0, team.dart_id(), who.c_str()));
    Handle p(fapl(), H5Pclose);
    // Creating and opening are collective in HDF5: every unit sees the same
    // outcome. A new name is created exclusively (a symlink planted there
    // since the check makes it fail rather than follow it).
    const hid_t f = !state[0]  ? H5Fcreate(file.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, p.id)
                    : truncate ? H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, p.id)
                               : H5Fopen(file.c_str(), H5F_ACC_RDWR, p.id);
    return check(f, who, !state[0] || truncate ? "H5Fcreate" : "H5Fopen", file);
  }
  // Whether file f has a dataset (or anything) at path `name`; false if a
  // group on the path is missing. Collective (metadata only).
  bool has_link(hid_t f, const std::string& name) const {
    std::size_t at = 0;
    while (true) {  // H5Lexists wants every group before the last part to exist
      at = name.find('/', at + 1);
      const std::string part = name.substr(0, at);
      if (!part.empty() && part != "/" && H5Lexists(f, part.c_str(), H5P_DEFAULT) <= 0)
        return false;
      if (at == std::string::npos) return true;
    }
  }
  // A new dataset of the extents ext and `type` (replacing one of that
  // name; missing groups on its path are created).
  hid_t create_dataset(hid_t f, const std::string& name, hid_t type) const {
    if (has_link(f, name)) check(H5Ldelete(f, name.c_str(), H5P_DEFAULT), who, "H5Ldelete", file);
    Handle space(check(H5Screate_simple(int(ext.size()), ext.data(), nullptr), who,
                       "H5Screate_simple", file),
                 H5Sclose);
    Handle links(check(H5Pcreate(H5P_LINK_CREATE), who, "H5Pcreate", file), H5Pclose);
    check(H5Pset_create_intermediate_group(links.id, 1), who, "H5Pset_create_intermediate_group",
          file);
    return check(H5Dcreate2(f, name.c_str(), type, space.id, links.id, H5P_DEFAULT, H5P_DEFAULT),
                 who, "H5Dcreate2", file);
  }
  // Moves the calling unit's elements between memory and dataset d (write
  // or read), collectively, through a staging buffer in file order.
  void transfer(hid_t d, hid_t type, bool write) {
    Handle file_space(check(H5Dget_space(d), who, "H5Dget_space", file), H5Sclose);
    select_runs(file_space.id, ext, runs, elem, who, file);
    const hsize_t n = hsize_t(std::max<std::size_t>(local / elem, 1));
    Handle mem_space(check(H5Screate_simple(1, &n, nullptr), who, "H5Screate_simple", file),
                     H5Sclose);
    if (local == 0) check(H5Sselect_none(mem_space.id), who, "H5Sselect_none", file);
    Handle xfer(check(H5Pcreate(H5P_DATASET_XFER), who, "H5Pcreate", file), H5Pclose);
    check(H5Pset_dxpl_mpio(xfer.id, H5FD_MPIO_COLLECTIVE), who, "H5Pset_dxpl_mpio", file);
    std::vector<char> staging(std::max<std::size_t>(local, elem));
    std::size_t at = 0;
    if (write)
      each_piece_in_order(runs, elem, [&](std::uint64_t, char* data, std::uint64_t len) {
        std::memcpy(&staging[at], data, len * elem);
        at += len * elem;
      });
    const herr_t ret = write
                           ? H5Dwrite(d, type, mem_space.id, file_space.id, xfer.id, staging.data())
                           : H5Dread(d, type, mem_space.id, file_space.id, xfer.id, staging.data());
    check(ret, who, write ? "H5Dwrite" : "H5Dread", file);
    if (!write)
      each_piece_in_order(runs, elem, [&](std::uint64_t, char* data, std::uint64_t len) {
        std::memcpy(data, &staging[at], len * elem);
        at += len * elem;
      });
  }
};

// The extents of container c's pattern. Local.
template <class Container>
std::vector<hsize_t> extents_of(const Container& c) {
  std::vector<hsize_t> ext;
  const auto& p = c.pattern();
  for (std::size_t d = 0; d < std::decay_t<decltype(p)>::ndim(); ++d)
    ext.push_back(hsize_t(p.extent(dim_t(d))));
  return ext;
}

// An HDF5 type for the elements: one the caller made (owned: closed after
// use) or a predefined one.
struct ElementType {
  hid_t id = -1;
  bool owned = false;
  ElementType(hid_t i, bool o) : id(i), owned(o) {}
  ~ElementType() {
    if (owned && id >= 0) H5Tclose(id);
  }
  ElementType(const ElementType&) = delete;
  ElementType& operator=(const ElementType&) = delete;
};

// What a write does with what is already there.
struct WriteMode {
  bool new_file = false;         // replace the file by a new, empty one
  bool into_existing = false;    // write into a dataset of that name (same extents, type)
  bool refuse_existing = false;  // a dataset of that name is an error (InvalidArgument)
  std::string attribute;         // if not empty: a long-array attribute of the dataset...
  std::vector<long> values;      // ...holding these values (replacing one of that name)
};

// Writes container c as dataset `dataset` of `file` with element type
// `type` as `mode` says. Collective over c's team.
template <class Container>
void write_container(Container& c, const std::string& file, const std::string& dataset,
                     const char* who, hid_t type, const WriteMode& mode) {
  Access a(c.team(), who, file, dash::io::internal::runs_of(c, who),
           sizeof(typename Container::value_type));
  a.ext = extents_of(c);
  Handle h(a.open_for_writing(c.team(), mode.new_file), H5Fclose);
  const bool exists = a.has_link(h.id, dataset);
  if (exists && mode.refuse_existing)
    throw exception::InvalidArgument(a.who + ": '" + file + "' has a dataset '" + dataset +
                                     "' already: modify_dataset writes into it");
  hid_t id = -1;
  if (exists && mode.into_existing) {
    id = a.open_dataset(h.id, dataset);
    Handle opened(id, H5Dclose);
    Handle stored(check(H5Dget_type(id), a.who, "H5Dget_type", file), H5Tclose);
    Handle space(check(H5Dget_space(id), a.who, "H5Dget_space", file), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space.id);
    std::vector<hsize_t> dims(std::size_t(std::max(rank, 0)));
    if (rank > 0) H5Sget_simple_extent_dims(space.id, dims.data(), nullptr);
    if (dims != a.ext || H5Tget_class(stored.id) != H5Tget_class(type) ||
        H5Tget_size(stored.id) != H5Tget_size(type))
      throw exception::InvalidArgument(a.who + ": dataset '" + dataset + "' of '" + file +
                                       "' has another element type or other extents than the "
                                       "container: it cannot be written into");
    opened.id = -1;  // kept open below
  } else {
    id = a.create_dataset(h.id, dataset, type);
  }
  Handle d(id, H5Dclose);
  a.transfer(d.id, type, true);
  if (mode.attribute.empty()) return;
  if (H5Aexists(d.id, mode.attribute.c_str()) > 0)
    check(H5Adelete(d.id, mode.attribute.c_str()), a.who, "H5Adelete", file);
  const hsize_t n = mode.values.size();
  Handle space(check(H5Screate_simple(1, &n, nullptr), a.who, "H5Screate_simple", file), H5Sclose);
  Handle attr(check(H5Acreate2(d.id, mode.attribute.c_str(), H5T_NATIVE_LONG, space.id, H5P_DEFAULT,
                               H5P_DEFAULT),
                    a.who, "H5Acreate2", file),
              H5Aclose);
  check(H5Awrite(attr.id, H5T_NATIVE_LONG, mode.values.data()), a.who, "H5Awrite", file);
}

// Reads dataset `dataset` of `file` into container c (the same element
// type -- class and size of `type` -- and extents, or as many elements).
// Collective over c's team.
template <class Container>
void read_container(const std::string& file, const std::string& dataset, Container& c,
                    const char* who, hid_t type) {
  Access a(c.team(), who, file, dash::io::internal::runs_of(c, who),
           sizeof(typename Container::value_type));
  a.ext = extents_of(c);
  Handle h(a.open_for_reading(), H5Fclose);
  Handle d(a.open_dataset(h.id, dataset), H5Dclose);
  Handle stored(check(H5Dget_type(d.id), a.who, "H5Dget_type", file), H5Tclose);
  Handle space(check(H5Dget_space(d.id), a.who, "H5Dget_space", file), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.id);
  std::vector<hsize_t> dims(std::size_t(std::max(rank, 0)));
  if (rank > 0) H5Sget_simple_extent_dims(space.id, dims.data(), nullptr);
  hsize_t count = 1, mine = 1;
  for (hsize_t e : dims) count *= e;
  for (hsize_t e : a.ext) mine *= e;
  const bool same_class =
      H5Tget_class(stored.id) == H5Tget_class(type) && H5Tget_size(stored.id) == H5Tget_size(type);
  if (!same_class || count != mine || (dims.size() == a.ext.size() && dims != a.ext))
    throw exception::InvalidArgument(a.who + ": dataset '" + dataset + "' of '" + file +
                                     "' has another element type or other extents than the "
                                     "container");
  a.ext = dims;  // another rank: select in the dataset's own extents
  a.transfer(d.id, type, false);
  c.barrier();
}

// A dataset's extents and, if it has it, a long-array attribute.
struct DatasetShape {
  std::vector<hsize_t> dims;
  bool has_attribute = false;
  std::vector<long> attribute;
};

// The extents of dataset `dataset` of `file` and its attribute `attribute`
// (if not empty and present). Collective over team (opens the file).
inline DatasetShape dataset_shape(Team& team, const std::string& file, const std::string& dataset,
                                  const char* who, const std::string& attribute) {
  Access a(team, who, file, {}, 1);
  Handle h(a.open_for_reading(), H5Fclose);
  Handle d(a.open_dataset(h.id, dataset), H5Dclose);
  Handle space(check(H5Dget_space(d.id), a.who, "H5Dget_space", file), H5Sclose);
  DatasetShape shape;
  const int rank = H5Sget_simple_extent_ndims(space.id);
  shape.dims.resize(std::size_t(std::max(rank, 0)));
  if (rank > 0) H5Sget_simple_extent_dims(space.id, shape.dims.data(), nullptr);
  if (attribute.empty() || H5Aexists(d.id, attribute.c_str()) <= 0) return shape;
  Handle attr(check(H5Aopen(d.id, attribute.c_str(), H5P_DEFAULT), a.who, "H5Aopen", file),
              H5Aclose);
  Handle attr_space(check(H5Aget_space(attr.id), a.who, "H5Aget_space", file), H5Sclose);
  const hssize_t n = H5Sget_simple_extent_npoints(attr_space.id);
  if (n <= 0) return shape;
  shape.attribute.resize(std::size_t(n));
  check(H5Aread(attr.id, H5T_NATIVE_LONG, shape.attribute.data()), a.who, "H5Aread", file);
  shape.has_attribute = true;
  return shape;
}

}  // namespace internal

// Writes container c as dataset `dataset` of the HDF5 file at `file`
// (created if missing; a dataset of that name is replaced). Collective over
// c's team.
template <class Container>
void save(Container& c, const std::string& file, const std::string& dataset) {
  bool made = false;
  const hid_t type = internal::file_type<typename Container::value_type>(&made);
  internal::ElementType element(type, made);
  internal::write_container(c, file, dataset, "dash::io::hdf5::save", element.id,
                            internal::WriteMode{});
}

// Reads dataset `dataset` of the HDF5 file at `file` into container c (the
// same element type and extents, or as many elements). Collective over c's
// team.
template <class Container>
void load(const std::string& file, const std::string& dataset, Container& c) {
  bool made = false;
  const hid_t type = internal::file_type<typename Container::value_type>(&made);
  internal::ElementType element(type, made);
  internal::read_container(file, dataset, c, "dash::io::hdf5::load", element.id);
}

// Writes every unit's pieces (file offsets in bytes) into dataset `dataset`
// of the HDF5 file at `file`: bytes (uint8) of `total` elements, created
// (replacing one of that name) in a file created if missing. Collective.
inline void write_pieces(const std::string& file, const std::string& dataset,
                         const std::vector<Piece>& pieces, std::uint64_t total,
                         Team& team = Team::All()) {
  internal::Access a(team, "dash::io::hdf5::write_pieces", file,
                     dash::io::internal::runs_of(pieces), 1);
  a.ext = {hsize_t(total)};
  internal::Handle h(a.open_for_writing(team), H5Fclose);
  internal::Handle d(a.create_dataset(h.id, dataset, H5T_NATIVE_UINT8), H5Dclose);
  a.transfer(d.id, H5T_NATIVE_UINT8, true);
}

// Reads every unit's pieces from byte dataset `dataset` of `file`.
// Collective.
inline void read_pieces(const std::string& file, const std::string& dataset,
                        const std::vector<Piece>& pieces, Team& team = Team::All()) {
  internal::Access a(team, "dash::io::hdf5::read_pieces", file, dash::io::internal::runs_of(pieces),
                     1);
  internal::Handle h(a.open_for_reading(), H5Fclose);
  internal::Handle d(a.open_dataset(h.id, dataset), H5Dclose);
  internal::Handle space(internal::check(H5Dget_space(d.id), a.who, "H5Dget_space", file),
                         H5Sclose);
  hsize_t n = 0;
  if (H5Sget_simple_extent_ndims(space.id) != 1 ||
      H5Sget_simple_extent_dims(space.id, &n, nullptr) < 0)
    throw exception::InvalidArgument(a.who + ": dataset '" + dataset + "' is not 1-D");
  a.ext = {n};
  a.transfer(d.id, H5T_NATIVE_UINT8, false);
}

}  // namespace hdf5
}  // namespace io
}  // namespace dash

#endif  // DASH__IO__HDF5__SAVE_LOAD_H_
