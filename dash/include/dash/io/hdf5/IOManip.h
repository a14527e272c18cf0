// The manipulators of DASH's HDF5 streams: what the next containers written
// to an OutputStream or read from an InputStream go to or come from.
//
//   os << dio::dataset("g1/temperature")      // the dataset (default "data")
//      << dio::store_pattern(false)            // keep the pattern's shape? (true)
//      << dio::modify_dataset()                // write into an existing dataset
//      << dio::setpattern_key("MY_PATTERN")    // the shape's attribute ("DASH_PATTERN")
//      << dio::type_converter(make_h5_type)    // the element type's HDF5 type
//      << array;
//   is >> dio::dataset("g1/temperature") >> dio::restore_pattern() >> array;
//
// A manipulator holds for every container after it in the same stream until
// another one of its kind replaces it. All local.
#ifndef DASH__IO__HDF5__IO_MANIP_H_
#define DASH__IO__HDF5__IO_MANIP_H_

#include <dash/LaunchPolicy.h>
#include <dash/io/hdf5/StorageDriver.h>

#include <string>
#include <utility>

namespace dash {
namespace io {
namespace hdf5 {

// The dataset (a path in the file) the next containers go to or come from.
class dataset {
 public:
  explicit dataset(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }

 private:
  std::string name_;
};

// The name of the attribute that keeps a pattern's shape.
class setpattern_key {
 public:
  explicit setpattern_key(std::string key) : key_(std::move(key)) {}
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

namespace internal {

// A manipulator that switches one option on (or, with false, off).
template <class Option>
class Switch {
 public:
  explicit Switch(bool on = true) : on_(on) {}
  bool value() const { return on_; }

 private:
  bool on_;
};

}  // namespace internal

// Whether written datasets keep the pattern's shape as an attribute.
using store_pattern = internal::Switch<struct StorePatternOption>;
// Whether containers without memory are read with the stored shape.
using restore_pattern = internal::Switch<struct RestorePatternOption>;
// Whether writes go into an existing dataset of the same name (same extents
// and element type) rather than refusing it.
using modify_dataset = internal::Switch<struct ModifyDatasetOption>;

// The HDF5 type of the next containers' elements: a function returning a
// new type id (the stream closes it after each use).
class type_converter {
 public:
  template <class F>
  explicit type_converter(F f) : make_(std::move(f)) {}
  const type_converter_fun_type& function() const { return make_; }

 private:
  type_converter_fun_type make_;
};

namespace internal {

// What a stream passes to StoreHDF: file, dataset, options, type converter.
struct StreamSettings {
  std::string file;
  std::string dataset = "data";
  hdf5_options options;
  type_converter_fun_type converter;
  dash::launch policy = dash::launch::sync;

  void apply(const hdf5::dataset& m) { dataset = m.name(); }
  void apply(const setpattern_key& m) { options.pattern_metadata_key = m.key(); }
  void apply(const store_pattern& m) { options.store_pattern = m.value(); }
  void apply(const restore_pattern& m) { options.restore_pattern = m.value(); }
  void apply(const modify_dataset& m) { options.modify_dataset = m.value(); }
  void apply(const type_converter& m) { converter = m.function(); }
};

// Whether T is one of the manipulators above.
template <class T>
constexpr bool is_manipulator_v =
    std::is_same_v<T, hdf5::dataset> || std::is_same_v<T, setpattern_key> ||
    std::is_same_v<T, store_pattern> || std::is_same_v<T, restore_pattern> ||
    std::is_same_v<T, modify_dataset> || std::is_same_v<T, type_converter>;

// Whether T is a container the streams take (it has a pattern and elements).
template <class T, class = void>
struct is_container : std::false_type {};
template <class T>
struct is_container<T, std::void_t<typename T::pattern_type, typename T::value_type,
                                   decltype(std::declval<T&>().pattern())>> : std::true_type {};

}  // namespace internal

}  // namespace hdf5
}  // namespace io
}  // namespace dash

#endif  // DASH__IO__HDF5__IO_MANIP_H_
