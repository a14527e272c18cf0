// dash::io::hdf5::InputStream: DASH's stream for reading containers from
// the datasets of an HDF5 file (see IOManip.h for the manipulators).
//
//   dio::InputStream is("out.h5");
//   dash::Array<double> a;                     // no memory: gets the stored shape
//   is >> dio::dataset("g1/b") >> a;           // each >> is StoreHDF::read
//
// Each container is read when it is streamed (the file is opened and
// closed around it). dash::launch::async is taken and read at once (see
// OutputStream.h); flush() returns at once.
//
// | call           | cost                                     |
// |----------------|------------------------------------------|
// | >> container   | collective over its team: StoreHDF::read |
// | >> manipulator | local                                    |
// | flush()        | local                                    |
#ifndef DASH__IO__HDF5__INPUT_STREAM_H_
#define DASH__IO__HDF5__INPUT_STREAM_H_

#include <dash/LaunchPolicy.h>
#include <dash/io/hdf5/IOManip.h>
#include <dash/io/hdf5/StorageDriver.h>

#include <string>
#include <type_traits>
#include <utility>

namespace dash {
namespace io {
namespace hdf5 {

class InputStream {
 public:
  // A stream reading from `file`. Local.
  explicit InputStream(std::string file) : InputStream(dash::launch::sync, std::move(file)) {}
  // The same with DASH's launch policy (see the header comment). Local.
  InputStream(dash::launch policy, std::string file) {
    settings_.file = std::move(file);
    settings_.policy = policy;
  }

  // Sets what the next containers come from (IOManip.h). Local.
  template <class M, class = std::enable_if_t<internal::is_manipulator_v<M>>>
  friend InputStream& operator>>(InputStream& is, const M& manipulator) {
    is.settings_.apply(manipulator);
    return is;
  }
  // Reads the current dataset into container c. Collective over c's team.
  template <class C, class = std::enable_if_t<internal::is_container<C>::value>>
  friend InputStream& operator>>(InputStream& is, C& c) {
    StoreHDF::read(c, is.settings_.file, is.settings_.dataset, is.settings_.options,
                   is.settings_.converter);
    return is;
  }

  // The same on a stream that is not kept (`InputStream(file) >> a;`).
  template <class X, class = std::enable_if_t<internal::is_manipulator_v<std::decay_t<X>> ||
                                              internal::is_container<std::decay_t<X>>::value>>
  friend InputStream& operator>>(InputStream&& s, X&& x) {
    return s >> std::forward<X>(x);
  }

  // Waits for the reads streamed so far: they are done already. Local.
  InputStream& flush() { return *this; }

 private:
  internal::StreamSettings settings_;
};

}  // namespace hdf5
}  // namespace io
}  // namespace dash

#endif  // DASH__IO__HDF5__INPUT_STREAM_H_
