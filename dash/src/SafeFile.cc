// Files a save writes (SafeFile.h).
#include "SafeFile.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace dash {
namespace internal {

namespace {

constexpr const char* kTemporaryTag = ".tmp.";
constexpr const char* kPartTag = ".part.";

std::string kind_of(mode_t mode) {
  if (S_ISLNK(mode)) return "a symlink";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string host_name() {
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  std::string h = host;
  for (char& c : h)
    if (c == '/' || c == ' ') c = '_';
  return h.empty() ? "localhost" : h;
}

// A temporary's name after "<base>.tmp.": "<pid>.<host>.<16 hex digits>". True and the pid and
// host if `rest` has that form.
bool parse_temporary(const std::string& rest, long& pid, std::string& host) {
  const std::size_t first = rest.find('.'), last = rest.rfind('.');
  if (first == std::string::npos || first == 0 || last <= first + 1) return false;
  if (rest.size() - last - 1 != 16 ||
      rest.find_first_not_of("0123456789abcdef", last + 1) != std::string::npos)
    return false;
  const std::string digits = rest.substr(0, first);
  if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9)
    return false;
  pid = std::stol(digits);
  host = rest.substr(first + 1, last - first - 1);
  return pid > 0;
}

}  // namespace

std::string file_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

std::uint64_t random_bits() {
  std::uint64_t v = 0;
  char* p = reinterpret_cast<char*>(&v);
  std::size_t got = 0;
  while (got < sizeof v) {
    const ssize_t n = getrandom(p + got, sizeof v - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(std::string("getrandom: ") + std::strerror(errno));
    got += std::size_t(n);
  }
  return v;
}

std::string check_save_target(const std::string& path) {
  if (path.empty()) return "no path";
  if (path.back() == '/') return "'" + path + "' names a directory, not a file";
  struct stat st;
  if (lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode))
      return "'" + path +
             "' is a symlink: refusing to replace it (save to the file it points to, or to a new "
             "name)";
    if (!S_ISREG(st.st_mode))
      return "'" + path + "' is " + kind_of(st.st_mode) +
             ", not a regular file: refusing to replace it (save to a new name or a regular file "
             "of yours)";
    if (st.st_uid != geteuid())
      return "'" + path + "' belongs to another user (uid " + std::to_string(st.st_uid) +
             "): refusing to replace it";
  }  // else a new name, or a path the creation of the temporary will report on
  // A missing or unusable directory is left to the creation of the temporary (its error).
  const std::string dir = directory_of(path);
  struct stat d;
  if (stat(dir.c_str(), &d) == 0 && S_ISDIR(d.st_mode) && (d.st_mode & S_IWOTH) &&
      !(d.st_mode & S_ISVTX))
    return "the directory '" + dir +
           "' is writable by every user and has no sticky bit: anyone could replace the file";
  return {};
}

namespace {

// Removes the files "<name of path><tag><pid>.<host>.<16 hex digits>" (with_index: followed by
// ".<decimal digits>") in path's directory that a process of this host left when it died, but
// those named in keep.
void remove_stale(const std::string& path, const char* tag, bool with_index,
                  const std::vector<std::string>& keep) {
  const std::string dir = directory_of(path);
  const std::string prefix = file_name(path) + tag;
  const int dfd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) return;
  DIR* d = fdopendir(dfd);
  if (d == nullptr) {
    close(dfd);
    return;
  }
  const std::string me = host_name();
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    std::string rest = name.substr(prefix.size());
    if (with_index) {
      const std::size_t dot = rest.rfind('.');
      if (dot == std::string::npos || dot + 1 == rest.size() ||
          rest.find_first_not_of("0123456789", dot + 1) != std::string::npos)
        continue;
      rest.resize(dot);
    }
    long pid = 0;
    std::string host;
    if (!parse_temporary(rest, pid, host) || host != me) continue;
    if (std::find(keep.begin(), keep.end(), name) != keep.end()) continue;
    if (kill(pid_t(pid), 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    struct stat st;
    if (fstatat(dfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
        st.st_uid == geteuid())
      unlinkat(dfd, name.c_str(), 0);
  }
  closedir(d);  // closes dfd
}

}  // namespace

void remove_stale_temporaries(const std::string& path) {
  remove_stale(path, kTemporaryTag, false, {});
}

std::string parts_stem(const std::string& temporary, const std::string& path) {
  const std::string head = path + kTemporaryTag;
  if (temporary.compare(0, head.size(), head) != 0)
    throw std::logic_error("parts_stem: '" + temporary + "' is no temporary of '" + path + "'");
  return path + kPartTag + temporary.substr(head.size());
}

void remove_stale_parts(const std::string& path, const std::vector<std::string>& keep) {
  remove_stale(path, kPartTag, true, keep);
}

std::string hex_digits(std::uint64_t v) {
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64, v);
  return text;
}

std::string create_temporary(const std::string& path, std::string& error) {
  remove_stale_temporaries(path);
  const std::string stem =
      path + kTemporaryTag + std::to_string(getpid()) + "." + host_name() + ".";
  for (int attempt = 0; attempt < 8; ++attempt) {
    const std::string name = stem + hex_digits(random_bits());
    const int fd = open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) {
      close(fd);
      return name;
    }
    if (errno != EEXIST) {
      error = "cannot create '" + name + "': " + std::strerror(errno);
      return {};
    }
  }
  error = "cannot create a temporary file next to '" + path + "': every name tried exists";
  return {};
}

std::string commit_temporary(const std::string& temporary, const std::string& path) {
  std::string error = check_save_target(path);
  if (error.empty() && std::rename(temporary.c_str(), path.c_str()) != 0)
    error = "cannot rename '" + temporary + "' to '" + path + "': " + std::strerror(errno);
  if (!error.empty()) {
    unlink(temporary.c_str());
    return error;
  }
  const int dir = open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    fsync(dir);  // the rename lasts
    close(dir);
  }
  return {};
}

int open_regular_for_reading(const std::string& path, std::string& error) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot open '" + path + "': " + std::strerror(errno);
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    error = "cannot look at '" + path + "': " + std::strerror(errno);
    close(fd);
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    error = "'" + path + "' is " + kind_of(st.st_mode) + ", not a regular file";
    close(fd);
    return -1;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

}  // namespace internal
}  // namespace dash
