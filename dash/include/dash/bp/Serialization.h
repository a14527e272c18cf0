// Serialisation of values into byte buffers, for the messages exchanged
// between blocks (and, later, for blocks written out of core). The
// block-parallel layer lives in namespace dash::bp (dash::blocks is DASH's
// view function that lists a view's blocks).
//
//   dash::bp::MemoryBuffer buf;
//   dash::bp::save(buf, value);     // appends value's bytes
//   dash::bp::load(buf, value);     // reads the next value, in order
//
// Out of the box: trivially copyable types (one memcpy), std::vector,
// std::string, std::map, std::pair, std::tuple and std::array of anything
// serialisable, nested to any depth (a vector of trivially copyable
// elements moves as one memcpy). Other types: specialise
//   template <> struct dash::bp::Serialization<MyType> {
//     static void save(MemoryBuffer& buf, const MyType& x);
//     static void load(MemoryBuffer& buf, MyType& x);
//   };
// Sizes are stored as 64-bit counts. Reading past the end of the buffer
// throws dash::exception::InvalidArgument; nothing is read then.
//
// | call             | cost                                             |
// |------------------|--------------------------------------------------|
// | save / load      | local; memcpy of the bytes, amortised appends    |
#ifndef DASH__BP__SERIALIZATION_H_
#define DASH__BP__SERIALIZATION_H_

#include <dash/Exception.h>
#include <dash/bp/internal/BufferStock.h>
#include <dash/bp/internal/ByteMemory.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

// Contiguous bytes that grow geometrically (internal/ByteMemory.h: realloc, or
// mremap from 128 KiB on, where the buffer is a mapping of its own) and are never zeroed:
// resize() leaves new bytes uninitialised, unlike std::vector<char>, so
// appending a small value is a capacity check and a fixed-size copy. Buffers of
// 64 KiB and more go back to a process-wide stock when released, and a first
// allocation of such a size takes one from there (internal/BufferStock.h): the
// queues and messages of one round are the next round's, with no page faults.
class Bytes {
 public:
  Bytes() = default;
  Bytes(const Bytes& o) { assign(o.data_, o.size_); }
  Bytes(Bytes&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)),
        size_(std::exchange(o.size_, 0)),
        capacity_(std::exchange(o.capacity_, 0)),
        to_stock_(std::exchange(o.to_stock_, true)) {}
  Bytes& operator=(const Bytes& o) {
    if (this != &o) assign(o.data_, o.size_);
    return *this;
  }
  Bytes& operator=(Bytes&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      capacity_ = std::exchange(o.capacity_, 0);
      to_stock_ = std::exchange(o.to_stock_, true);
    }
    return *this;
  }
  ~Bytes() { release(); }

  char* data() { return data_; }
  const char* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  // Sets the size; new bytes are uninitialised. Local.
  void resize(std::size_t n) {
    if (n > capacity_) grow(n);
    size_ = n;
  }
  // Makes room for n bytes in all. Local.
  void reserve(std::size_t n) {
    if (n > capacity_) reallocate(n);
  }
  void clear() { size_ = 0; }
  // Takes over `capacity` bytes at `data`, which come from
  // internal::allocate_bytes (or, below internal::kMapBytes, malloc or
  // posix_memalign; from there on, a mapping of exactly `capacity` bytes),
  // of which the first `size` are the bytes. `to_stock` false: when released
  // they go back to the system, not to the process-wide stock (buffers that
  // their owner recycles itself, such as out-of-core slabs, whose memory
  // must not outlive them). Local.
  static Bytes adopt(char* data, std::size_t size, std::size_t capacity, bool to_stock = true) {
    Bytes b;
    b.data_ = data;
    b.size_ = size;
    b.capacity_ = capacity;
    b.to_stock_ = to_stock;
    return b;
  }
  // Appends n uninitialised bytes and returns where they start. Local.
  char* extend(std::size_t n) {
    if (n > capacity_ - size_) grow(size_ + n);
    char* at = data_ + size_;
    size_ += n;
    return at;
  }

 private:
  void release() noexcept {
    if (to_stock_)
      internal::BufferStock::give(data_, capacity_);
    else
      internal::release_bytes(data_, capacity_);
  }
  void assign(const char* from, std::size_t n) {
    resize(n);
    if (n > 0) std::memcpy(data_, from, n);
  }
  [[gnu::noinline]] void grow(std::size_t need) {
    reallocate(std::max<std::size_t>({need, 2 * capacity_, 64}));
  }
  // A large size reuses a kept buffer (internal/BufferStock.h), first allocation or growth (the
  // bytes copied, the old buffer given back): its pages are mapped already, where a fresh or
  // grown mapping faults on every page. Buffers not of the stock keep their own memory.
  void reallocate(std::size_t n) {
    if (to_stock_) {
      if (auto kept = internal::BufferStock::take(n); kept.data != nullptr) {
        if (size_ > 0) std::memcpy(kept.data, data_, size_);
        release();
        data_ = kept.data;
        capacity_ = kept.capacity;
        return;
      }
    }
    std::size_t capacity = capacity_;
    data_ = internal::reallocate_bytes(data_, capacity, n);
    capacity_ = capacity;
  }

  char* data_ = nullptr;
  std::size_t size_ = 0, capacity_ = 0;
  bool to_stock_ = true;  // released into internal::BufferStock (else to the system)
};

namespace internal {
// A T at any address: stores and loads through it are typed (unlike memcpy,
// which may touch any object, so the compiler would reload the buffer's own
// size and pointer after every value).
template <class T>
struct [[gnu::packed]] Unaligned {
  T value;
};
}  // namespace internal

// A growable byte buffer with a read position.
class MemoryBuffer {
 public:
  // Appends the bytes of a POD value (trivial, standard layout). Local.
  template <class T>
  void write_value(const T& x) {
    static_assert(std::is_trivial_v<T> && std::is_standard_layout_v<T>, "a POD type");
    reinterpret_cast<internal::Unaligned<T>*>(bytes_.extend(sizeof(T)))->value = x;
  }
  // Reads the next POD value; throws InvalidArgument (reading
  // nothing) if fewer bytes remain. Local.
  template <class T>
  void read_value(T& x) {
    static_assert(std::is_trivial_v<T> && std::is_standard_layout_v<T>, "a POD type");
    if (sizeof(T) > remaining()) throw_short(sizeof(T));
    x = reinterpret_cast<const internal::Unaligned<T>*>(bytes_.data() + position_)->value;
    position_ += sizeof(T);
  }
  // Appends n bytes. Local.
  void write(const void* data, std::size_t n) {
    if (n == 0) return;
    std::memcpy(bytes_.extend(n), data, n);
  }
  // Reads the next n bytes into data; throws InvalidArgument (reading
  // nothing) if fewer remain. Local.
  void read(void* data, std::size_t n) {
    if (n > remaining()) throw_short(n);
    if (n == 0) return;
    std::memcpy(data, bytes_.data() + position_, n);
    position_ += n;
  }
  // Skips the next n bytes and returns where they start, so they can be read
  // in place (valid until the buffer changes); throws InvalidArgument
  // (skipping nothing) if fewer remain. Local, no copy.
  const char* read_in_place(std::size_t n) {
    if (n > remaining()) throw_short(n);
    const char* at = bytes_.data() + position_;
    position_ += n;
    return at;
  }
  // Appends n uninitialised bytes that start at an address congruent to
  // `residue` modulo `modulus` (a power of two), and returns it: the unread
  // bytes move up to modulus - 1 bytes further into the buffer to get
  // there (the bytes before them are read already). For receiving a large
  // message at an address the copy is fast for. Local; a memmove of the
  // unread bytes.
  char* extend_at_residue(std::size_t n, std::size_t residue, std::size_t modulus) {
    bytes_.reserve(bytes_.size() + n + modulus - 1);
    const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(bytes_.data() + bytes_.size());
    const std::size_t shift = (residue - end) & (modulus - 1);
    if (shift > 0) {
      const std::size_t unread = remaining();
      bytes_.resize(bytes_.size() + shift);
      if (unread > 0)
        std::memmove(bytes_.data() + position_ + shift, bytes_.data() + position_, unread);
      position_ += shift;
    }
    return bytes_.extend(n);
  }
  std::size_t size() const { return bytes_.size(); }
  // Bytes of memory held (at least size()). Local.
  std::size_t capacity() const { return bytes_.capacity(); }
  std::size_t position() const { return position_; }
  std::size_t remaining() const { return bytes_.size() - position_; }
  // Starts reading from the beginning again.
  void rewind() { position_ = 0; }
  // Drops all bytes (keeps the capacity).
  void clear() {
    bytes_.clear();
    position_ = 0;
  }
  const char* data() const { return bytes_.data(); }
  Bytes& bytes() { return bytes_; }

 private:
  [[noreturn, gnu::noinline, gnu::cold]] void throw_short(std::size_t n) const {
    throw exception::InvalidArgument("dash::bp::MemoryBuffer: reading " + std::to_string(n) +
                                     " bytes at position " + std::to_string(position_) + " of " +
                                     std::to_string(bytes_.size()));
  }

  Bytes bytes_;
  std::size_t position_ = 0;
};

// Elements of a std::vector<T> read in place from an incoming queue
// (ReduceProxy::dequeue_view: valid until the reduction's function returns;
// Proxy::dequeue_view: see there).
template <class T>
class QueueView {
 public:
  QueueView() = default;
  QueueView(const T* data, std::size_t size) : data_(data), size_(size) {}
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  const T* data_ = nullptr;
  std::size_t size_ = 0;
};

// How a type is saved and loaded; specialise it for your own types.
template <class T, class Enable = void>
struct Serialization {
  // Marks the primary template (is_serialisable below tells it apart from
  // the specialisations).
  using primary_serialization = void;

  static void save(MemoryBuffer& buf, const T& x) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "dash::bp: no serialisation for this type; specialise "
                  "dash::bp::Serialization<T> with static save(MemoryBuffer&, const T&) and "
                  "load(MemoryBuffer&, T&)");
    if constexpr (kTyped)
      buf.write_value(x);
    else
      buf.write(&x, sizeof(T));
  }
  static void load(MemoryBuffer& buf, T& x) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "dash::bp: no serialisation for this type; specialise "
                  "dash::bp::Serialization<T> with static save(MemoryBuffer&, const T&) and "
                  "load(MemoryBuffer&, T&)");
    if constexpr (kTyped)
      buf.read_value(x);
    else
      buf.read(&x, sizeof(T));
  }

 private:
  // Typed unaligned access needs a POD type (GCC packs only those).
  static constexpr bool kTyped = std::is_trivial_v<T> && std::is_standard_layout_v<T>;
};

// Appends x to buf. Local.
template <class T>
void save(MemoryBuffer& buf, const T& x) {
  Serialization<T>::save(buf, x);
}

// Reads the next value from buf into x. Local.
template <class T>
void load(MemoryBuffer& buf, T& x) {
  Serialization<T>::load(buf, x);
}

namespace internal {

inline void save_count(MemoryBuffer& buf, std::size_t n) {
  const std::uint64_t count = n;
  buf.write(&count, sizeof(count));
}

// Reads a count of elements of at least min_bytes each; rejects counts the
// remaining bytes cannot hold (a corrupt buffer must not allocate wildly),
// reading nothing then.
inline std::size_t load_count(MemoryBuffer& buf, std::size_t min_bytes) {
  std::uint64_t count = 0;
  if (buf.remaining() < sizeof(count)) buf.read(&count, sizeof(count));  // throws
  std::memcpy(&count, buf.data() + buf.position(), sizeof(count));
  const std::size_t left = buf.remaining() - sizeof(count);
  if (min_bytes > 0 && count > left / min_bytes)
    throw exception::InvalidArgument("dash::bp::load: a count of " + std::to_string(count) +
                                     " elements exceeds the " + std::to_string(left) +
                                     " bytes left in the buffer");
  buf.read(&count, sizeof(count));
  return std::size_t(count);
}

// Reads the next std::vector<T> of `in` in place (the elements stay in the
// buffer); when they are misaligned for T, copies them into `scratch`
// (valid until its next use). Errors as load. Local; no copy (one if
// misaligned).
template <class T>
QueueView<T> load_view(MemoryBuffer& in, std::vector<std::max_align_t>& scratch) {
  static_assert(std::is_trivially_copyable_v<T>, "a view needs trivially copyable T");
  static_assert(alignof(T) <= alignof(std::max_align_t), "a view of an over-aligned T");
  const std::size_t n = load_count(in, sizeof(T));
  const char* at = in.read_in_place(n * sizeof(T));
  if (reinterpret_cast<std::uintptr_t>(at) % alignof(T) == 0)
    return QueueView<T>(reinterpret_cast<const T*>(at), n);
  scratch.resize((n * sizeof(T) + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
  if (n > 0) std::memcpy(scratch.data(), at, n * sizeof(T));
  return QueueView<T>(reinterpret_cast<const T*>(scratch.data()), n);
}

}  // namespace internal

template <class T, class A>
struct Serialization<std::vector<T, A>> {
  static void save(MemoryBuffer& buf, const std::vector<T, A>& v) {
    internal::save_count(buf, v.size());
    if constexpr (std::is_trivially_copyable_v<T>) {
      buf.write(v.data(), v.size() * sizeof(T));
    } else {
      for (const T& x : v) dash::bp::save(buf, x);
    }
  }
  static void load(MemoryBuffer& buf, std::vector<T, A>& v) {
    if constexpr (std::is_trivially_copyable_v<T>) {
      const std::size_t n = internal::load_count(buf, sizeof(T));
      v.resize(n);
      buf.read(v.data(), n * sizeof(T));
    } else {
      const std::size_t n = internal::load_count(buf, 0);
      v.clear();
      v.reserve(std::min<std::size_t>(n, buf.remaining()));
      for (std::size_t i = 0; i < n; ++i) {
        T x{};
        dash::bp::load(buf, x);
        v.push_back(std::move(x));
      }
    }
  }
};

// std::vector<bool>: a count, then one byte (0 or 1) per element.
template <class A>
struct Serialization<std::vector<bool, A>> {
  static void save(MemoryBuffer& buf, const std::vector<bool, A>& v) {
    internal::save_count(buf, v.size());
    for (bool x : v) {
      const unsigned char byte = x ? 1 : 0;
      buf.write(&byte, 1);
    }
  }
  static void load(MemoryBuffer& buf, std::vector<bool, A>& v) {
    const std::size_t n = internal::load_count(buf, 1);
    v.resize(n);
    const char* bytes = buf.read_in_place(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = bytes[i] != 0;
  }
};

template <class C, class Tr, class A>
struct Serialization<std::basic_string<C, Tr, A>> {
  static void save(MemoryBuffer& buf, const std::basic_string<C, Tr, A>& s) {
    internal::save_count(buf, s.size());
    buf.write(s.data(), s.size() * sizeof(C));
  }
  static void load(MemoryBuffer& buf, std::basic_string<C, Tr, A>& s) {
    const std::size_t n = internal::load_count(buf, sizeof(C));
    s.resize(n);
    buf.read(s.data(), n * sizeof(C));
  }
};

template <class K, class V, class Cmp, class A>
struct Serialization<std::map<K, V, Cmp, A>> {
  static void save(MemoryBuffer& buf, const std::map<K, V, Cmp, A>& m) {
    internal::save_count(buf, m.size());
    for (const auto& [k, v] : m) {
      dash::bp::save(buf, k);
      dash::bp::save(buf, v);
    }
  }
  static void load(MemoryBuffer& buf, std::map<K, V, Cmp, A>& m) {
    const std::size_t n = internal::load_count(buf, 0);
    m.clear();
    for (std::size_t i = 0; i < n; ++i) {
      K k{};
      V v{};
      dash::bp::load(buf, k);
      dash::bp::load(buf, v);
      m.emplace_hint(m.end(), std::move(k), std::move(v));
    }
  }
};

// Pairs, tuples and arrays of non-trivially-copyable members, member by
// member (trivially copyable ones take the memcpy of the primary template).
template <class A, class B>
struct Serialization<std::pair<A, B>,
                     std::enable_if_t<!std::is_trivially_copyable_v<std::pair<A, B>>>> {
  static void save(MemoryBuffer& buf, const std::pair<A, B>& p) {
    dash::bp::save(buf, p.first);
    dash::bp::save(buf, p.second);
  }
  static void load(MemoryBuffer& buf, std::pair<A, B>& p) {
    dash::bp::load(buf, p.first);
    dash::bp::load(buf, p.second);
  }
};

template <class... Ts>
struct Serialization<std::tuple<Ts...>,
                     std::enable_if_t<!std::is_trivially_copyable_v<std::tuple<Ts...>>>> {
  static void save(MemoryBuffer& buf, const std::tuple<Ts...>& t) {
    std::apply([&buf](const auto&... x) { (dash::bp::save(buf, x), ...); }, t);
  }
  static void load(MemoryBuffer& buf, std::tuple<Ts...>& t) {
    std::apply([&buf](auto&... x) { (dash::bp::load(buf, x), ...); }, t);
  }
};

template <class T, std::size_t N>
struct Serialization<std::array<T, N>, std::enable_if_t<!std::is_trivially_copyable_v<T>>> {
  static void save(MemoryBuffer& buf, const std::array<T, N>& a) {
    for (const T& x : a) dash::bp::save(buf, x);
  }
  static void load(MemoryBuffer& buf, std::array<T, N>& a) {
    for (T& x : a) dash::bp::load(buf, x);
  }
};

namespace internal {
template <class S, class = void>
struct is_primary_serialization : std::false_type {};
template <class S>
struct is_primary_serialization<S, std::void_t<typename S::primary_serialization>>
    : std::true_type {};
}  // namespace internal

// Whether dash::bp::save/load can handle T: trivially copyable, a standard
// container of the types above made of such types, or a type with its own
// Serialization specialisation. Compile time.
template <class T>
struct is_serialisable
    : std::bool_constant<std::is_trivially_copyable_v<T> ||
                         !internal::is_primary_serialization<Serialization<T>>::value> {};
template <class T, class A>
struct is_serialisable<std::vector<T, A>> : is_serialisable<T> {};
template <class K, class V, class C, class A>
struct is_serialisable<std::map<K, V, C, A>>
    : std::conjunction<is_serialisable<K>, is_serialisable<V>> {};
template <class A, class B>
struct is_serialisable<std::pair<A, B>> : std::conjunction<is_serialisable<A>, is_serialisable<B>> {
};
template <class... Ts>
struct is_serialisable<std::tuple<Ts...>> : std::conjunction<is_serialisable<Ts>...> {};
template <class T, std::size_t N>
struct is_serialisable<std::array<T, N>> : is_serialisable<T> {};
template <class T>
inline constexpr bool is_serialisable_v = is_serialisable<T>::value;

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__SERIALIZATION_H_
