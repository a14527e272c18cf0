// The raw device baselines of the out-of-core benchmarks: one file written with write() and
// fsync(), read back cold (page cache dropped) with read(), or with O_DIRECT in requests of a
// given size. What the device gives a program that uses no library.
#ifndef DASH_BENCH_SUPPORT_RAW_FILE_H_
#define DASH_BENCH_SUPPORT_RAW_FILE_H_

#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

// A file of `bytes` bytes at `path` (removed with the object).
class RawFile {
 public:
  RawFile(std::string path, std::size_t bytes) : path_(std::move(path)), data_(bytes, 'x') {
    for (std::size_t i = 0; i < data_.size(); i += 4096) data_[i] = char(i >> 12);
  }
  ~RawFile() {
    unlink(path_.c_str());
    std::free(aligned_);
  }
  RawFile(const RawFile&) = delete;
  RawFile& operator=(const RawFile&) = delete;

  std::size_t bytes() const { return data_.size(); }

  // Writes the whole file and fsyncs it.
  void write_fsync() {
    const int fd = open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) throw std::runtime_error("open " + path_ + ": " + std::strerror(errno));
    std::size_t done = 0;
    while (done < data_.size()) {
      const ssize_t n = write(fd, data_.data() + done, data_.size() - done);
      if (n <= 0) throw std::runtime_error("write " + path_ + ": " + std::strerror(errno));
      done += std::size_t(n);
    }
    if (fsync(fd) != 0) throw std::runtime_error("fsync: " + std::string(std::strerror(errno)));
    close(fd);
  }

  // Writes the whole file with O_DIRECT (page-aligned buffer) in requests of `request` bytes
  // (0: one request): the device's write rate without the page cache, and, as the out-of-core
  // files (temporaries, never fsynced), without fsync. The file is overwritten in place, not
  // truncated (after the first call its blocks are allocated, as the out-of-core files' are).
  void direct_write(std::size_t request = 0) {
    const std::size_t total = data_.size();
    if (aligned_ == nullptr && posix_memalign(&aligned_, 4096, total) != 0)
      throw std::runtime_error("posix_memalign failed");
    std::memcpy(aligned_, data_.data(), total);
    const int fd = open(path_.c_str(), O_WRONLY | O_CREAT | O_DIRECT, 0600);
    if (fd < 0) throw std::runtime_error("open " + path_ + ": " + std::strerror(errno));
    if (request == 0) request = total;
    std::size_t done = 0;
    while (done < total) {
      const std::size_t ask = std::min(request, total - done);
      const ssize_t n = pwrite(fd, static_cast<char*>(aligned_) + done, ask, off_t(done));
      if (n <= 0) throw std::runtime_error("write " + path_ + ": " + std::strerror(errno));
      done += std::size_t(n);
    }
    close(fd);
  }

  // Drops the file's pages from the page cache (the next read() is cold).
  void drop_cache() {
    const int fd = open(path_.c_str(), O_RDONLY);
    if (fd < 0) return;
    fdatasync(fd);
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    close(fd);
  }

  // The file read with O_DIRECT (page-aligned buffer), as the stores read, in requests of
  // `request` bytes (0: one request for the whole file).
  void direct_read(std::size_t request = 0) {
    const int fd = open(path_.c_str(), O_RDONLY | O_DIRECT);
    if (fd < 0) throw std::runtime_error("open " + path_ + ": " + std::strerror(errno));
    const std::size_t total = data_.size();
    if (aligned_ == nullptr && posix_memalign(&aligned_, 4096, total) != 0)
      throw std::runtime_error("posix_memalign failed");
    if (request == 0) request = total;
    std::size_t done = 0;
    while (done < total) {
      const std::size_t ask = std::min(request, total - done);
      const ssize_t n = pread(fd, static_cast<char*>(aligned_) + done, ask, off_t(done));
      if (n <= 0) throw std::runtime_error("read " + path_ + ": " + std::strerror(errno));
      done += std::size_t(n);
    }
    close(fd);
  }

  // The file read with read() (cold after drop_cache()).
  void cold_read() {
    const int fd = open(path_.c_str(), O_RDONLY);
    if (fd < 0) throw std::runtime_error("open " + path_ + ": " + std::strerror(errno));
    std::size_t done = 0;
    while (done < data_.size()) {
      const ssize_t n = read(fd, data_.data() + done, data_.size() - done);
      if (n <= 0) throw std::runtime_error("read " + path_ + ": " + std::strerror(errno));
      done += std::size_t(n);
    }
    close(fd);
  }

 private:
  std::string path_;
  std::vector<char> data_;
  void* aligned_ = nullptr;
};

}  // namespace bench

#endif  // DASH_BENCH_SUPPORT_RAW_FILE_H_
