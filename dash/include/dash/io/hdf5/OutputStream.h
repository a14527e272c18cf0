// dash::io::hdf5::OutputStream: DASH's stream for writing containers into an
// HDF5 file, one dataset each (see IOManip.h for the manipulators).
//
//   dio::OutputStream os("out.h5");                   // replaced at the first write
//   os << dio::dataset("a") << array_a                // each << is StoreHDF::write
//      << dio::dataset("g1/b") << matrix_b;
//   dio::OutputStream more("out.h5", dio::DeviceMode::app);  // adds to the file
//
// Each container is written when it is streamed (the file is opened and
// closed around it), so the container may change or go right after, and an
// InputStream may read the file while the OutputStream lives. With
// DeviceMode::no_flags the first write replaces the file and later ones add
// to it; with DeviceMode::app every write adds to it.
//
// dash::launch::async is taken and written at once as well: parallel HDF5
// would need MPI_THREAD_MULTIPLE and a thread-safe HDF5 to write from a
// second thread (DASH falls back to the same without thread support);
// flush() returns at once.
//
// | call            | cost                                   |
// |-----------------|----------------------------------------|
// | << container    | collective over its team: StoreHDF::write |
// | << manipulator  | local                                  |
// | flush()         | local                                  |
#ifndef DASH__IO__HDF5__OUTPUT_STREAM_H_
#define DASH__IO__HDF5__OUTPUT_STREAM_H_

#include <dash/LaunchPolicy.h>
#include <dash/io/hdf5/IOManip.h>
#include <dash/io/hdf5/StorageDriver.h>

#include <string>
#include <type_traits>
#include <utility>

namespace dash {
namespace io {
namespace hdf5 {

class OutputStream {
 public:
  // A stream writing into `file`. Local.
  explicit OutputStream(std::string file, DeviceMode mode = DeviceMode::no_flags)
      : OutputStream(dash::launch::sync, std::move(file), mode) {}
  // The same with DASH's launch policy (see the header comment). Local.
  OutputStream(dash::launch policy, std::string file, DeviceMode mode = DeviceMode::no_flags) {
    settings_.file = std::move(file);
    settings_.policy = policy;
    settings_.options.overwrite_file = mode != DeviceMode::app;
  }

  // Sets what the next containers go to (IOManip.h). Local.
  template <class M, class = std::enable_if_t<internal::is_manipulator_v<M>>>
  friend OutputStream& operator<<(OutputStream& os, const M& manipulator) {
    os.settings_.apply(manipulator);
    return os;
  }
  // Writes container c into the current dataset. Collective over c's team.
  template <class C, class = std::enable_if_t<internal::is_container<C>::value>>
  friend OutputStream& operator<<(OutputStream& os, C& c) {
    StoreHDF::write(c, os.settings_.file, os.settings_.dataset, os.settings_.options,
                    os.settings_.converter);
    os.settings_.options.overwrite_file = false;  // later writes add to the file
    return os;
  }

  // The same on a stream that is not kept (`OutputStream(file) << a;`).
  template <class X, class = std::enable_if_t<internal::is_manipulator_v<std::decay_t<X>> ||
                                              internal::is_container<std::decay_t<X>>::value>>
  friend OutputStream& operator<<(OutputStream&& s, X&& x) {
    return s << std::forward<X>(x);
  }

  // Waits for the writes streamed so far: they are done already. Local.
  OutputStream& flush() { return *this; }

 private:
  internal::StreamSettings settings_;
};

}  // namespace hdf5
}  // namespace io
}  // namespace dash

#endif  // DASH__IO__HDF5__OUTPUT_STREAM_H_
