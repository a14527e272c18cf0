// The unit's spill directory (dash/bp/SpillDirectory.h), part of the block layer's spill
// storage, and the hook that ends that storage at dash::finalize.
#include <dart/dart_initialization.h>
#include <dash/Exception.h>
#include <dash/bp/SpillDirectory.h>
#include <dash/internal/Flags.h>
#include <dash/internal/LayerHooks.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "SafeFile.h"
#include "bp/store/Storage.h"

namespace dash {
namespace bp {

namespace {

// dash::finalize ends the spill storage (the block stores' and the out-of-core layer's files):
// spill I/O finished, the unit's spill directory removed (a program that links the spill
// directory links this).
[[maybe_unused]] const bool registered = dash::internal::register_layer(
    {"dash::bp spill storage", nullptr, shutdown_spill_storage, nullptr, nullptr});

std::mutex& directory_mutex() {
  static std::mutex* m = new std::mutex;  // never destroyed: used at exit
  return *m;
}

SpillDirectory* current = nullptr;  // guarded by directory_mutex()

// The directory that spill_open & co. work in: its path and descriptor, under a mutex of their
// own (taken last, never held while taking another), since they run under the block store
// engine's mutex, which is held while directory_mutex() is taken.
std::mutex files_mutex;
std::string files_path;  // guarded by files_mutex
int files_fd = -1;       // guarded by files_mutex

// What the signal handler needs, prepared before it can run: the descriptors of the directory
// and its parent, and its name (no allocation in the handler).
int signal_dir_fd = -1;
int signal_parent_fd = -1;
char signal_dir_name[32];
struct sigaction previous_term, previous_int;
bool handlers_installed = false;

// Unlinks every entry of the directory `fd` with raw getdents64 calls and
// a static buffer: async-signal-safe. Returns nothing; best effort.
void unlink_entries(int fd) {
  alignas(8) static char buffer[8192];
  for (;;) {
    lseek(fd, 0, SEEK_SET);
    long n = syscall(SYS_getdents64, fd, buffer, sizeof buffer);
    if (n <= 0) return;
    bool removed = false;
    for (long at = 0; at < n;) {
      // struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name
      unsigned short reclen;
      std::memcpy(&reclen, buffer + at + 16, sizeof reclen);
      const char* name = buffer + at + 19;
      if (!(name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))))
        removed |= unlinkat(fd, name, 0) == 0;
      at += reclen;
    }
    if (!removed) return;
  }
}

// Removes the directory from a signal handler or a DART abort: async-signal-safe.
void remove_from_handler() {
  if (signal_dir_fd >= 0) {
    unlink_entries(signal_dir_fd);
    unlinkat(signal_parent_fd, signal_dir_name, AT_REMOVEDIR);
  }
}

void on_signal(int sig) {
  remove_from_handler();
  // The previous disposition (default: end the process), then the signal again.
  struct sigaction& previous = sig == SIGTERM ? previous_term : previous_int;
  sigaction(sig, &previous, nullptr);
  raise(sig);
}

void install_handlers() {
  if (handlers_installed) return;
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  sigaction(SIGTERM, &action, &previous_term);
  sigaction(SIGINT, &action, &previous_int);
  // MPI_Abort (the watchdog's, dart_abort) ends the process without exit handlers.
  dart_at_abort(remove_from_handler);
  handlers_installed = true;
}

std::string parent_directory() {
  const char* dir =
      dash::internal::read_flag_text(dash::internal::Flag::ooc_dir, "dash::bp::SpillDirectory");
  if (dir != nullptr) return dir;
  const char* tmp = std::getenv("TMPDIR");
  if (tmp != nullptr && tmp[0] != '\0') return tmp;
  return "/tmp";
}

[[noreturn]] void refuse(const std::string& parent, const std::string& why) {
  throw exception::InvalidArgument("dash::bp::SpillDirectory: cannot keep out-of-core data in '" +
                                   parent + "' (DASH_OOC_DIR, else $TMPDIR, else /tmp): " + why);
}

// Resolves the parent directory once (realpath) and checks every directory on the resolved path,
// "/" included: owned by us or root, and writable by others only with the sticky bit, so that no
// other user can replace any of them (nor our directory inside). Returns the resolved path and its
// descriptor (O_DIRECTORY | O_NOFOLLOW, checked to be the directory examined). InvalidArgument
// naming the parent and why otherwise. Local.
std::pair<std::string, int> open_parent(const std::string& parent) {
  char* resolved_c = realpath(parent.c_str(), nullptr);
  if (resolved_c == nullptr) refuse(parent, std::strerror(errno));
  const std::string resolved = resolved_c;
  std::free(resolved_c);
  const uid_t me = geteuid();
  struct stat st {};
  for (std::size_t end = 0; end != std::string::npos;) {
    end = resolved.find('/', end + 1);
    const std::string component = end == std::string::npos ? resolved : resolved.substr(0, end);
    const std::string at = component.empty() ? "/" : component;
    if (lstat(at.c_str(), &st) != 0) refuse(parent, "'" + at + "': " + std::strerror(errno));
    if (!S_ISDIR(st.st_mode)) refuse(parent, "'" + at + "' is not a directory");
    if (st.st_uid != me && st.st_uid != 0)
      refuse(parent, "'" + at + "' belongs to another user (uid " + std::to_string(st.st_uid) +
                         "), who could replace what is in it");
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
      refuse(parent, "'" + at + "' is writable by " +
                         ((st.st_mode & S_IWOTH) ? "every user" : "its group") +
                         " without the sticky bit (they could replace what is in it)");
  }
  if (access(resolved.c_str(), W_OK | X_OK) != 0)
    refuse(parent, std::string("not writable: ") + std::strerror(errno));
  const int fd = open(resolved.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat opened {};
  if (fd < 0 || fstat(fd, &opened) != 0 || opened.st_dev != st.st_dev ||
      opened.st_ino != st.st_ino) {
    if (fd >= 0) close(fd);
    refuse(parent, "it changed while it was checked");
  }
  return {resolved, fd};
}

// Every spill directory holds this file, locked (flock) by its unit for the directory's life
// and holding "<pid> <host>" once locked. The lock goes when the unit's process ends, however it
// ends: a directory whose lock can be taken belongs to no live process.
constexpr const char* kOwnerFile = ".owner";
int owner_fd = -1;  // this unit's locked owner file; guarded by directory_mutex()

// Removes the regular files of directory `dir` (a descriptor; nothing is followed). Local.
void remove_files_at(int dir) {
  DIR* d = fdopendir(dup(dir));
  if (d == nullptr) return;
  while (dirent* e = readdir(d)) {
    const char* name = e->d_name;
    if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) continue;
    struct stat st;
    if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
      unlinkat(dir, name, 0);
  }
  closedir(d);
}

// Removes the spill directories in `parent` that a unit left when its process was ended by
// SIGKILL (the launchers' way of ending the other units of a failed job, MPICH's hydra's among
// them) or died otherwise before it could remove its own: directories named dash-ooc-*, ours
// (same user, mode 0700, not a symlink), whose owner file is unlocked and not empty. Never
// removes on doubt (no owner file, an empty one: a directory being made, a file system without
// flock). Local: one directory scan of the parent (its descriptor).
void remove_abandoned(int pfd) {
  DIR* d = fdopendir(dup(pfd));
  while (d != nullptr) {
    dirent* e = readdir(d);
    if (e == nullptr) break;
    if (std::strncmp(e->d_name, "dash-ooc-", 9) != 0) continue;
    struct stat st;
    if (fstatat(pfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != geteuid() || (st.st_mode & 077) != 0)
      continue;
    const int dir = openat(pfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir < 0) continue;
    const int owner = openat(dir, kOwnerFile, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    char text[8];
    if (owner >= 0 && flock(owner, LOCK_EX | LOCK_NB) == 0 && pread(owner, text, 1, 0) == 1) {
      remove_files_at(dir);
      unlinkat(pfd, e->d_name, AT_REMOVEDIR);
    }
    if (owner >= 0) close(owner);  // drops the lock
    close(dir);
  }
  if (d != nullptr) closedir(d);
}

// Makes the owner file in the new directory (its descriptor), locks it and writes "<pid> <host>".
// Returns its descriptor, or -1 (the directory then works, but is not reaped if its unit is
// killed).
int make_owner_file(int dir) {
  const int fd = openat(dir, kOwnerFile, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  if (flock(fd, LOCK_EX) != 0) {  // waits only while a reaper looks at the empty file
    close(fd);
    return -1;
  }
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  const std::string text = std::to_string(getpid()) + " " + host + "\n";
  if (write(fd, text.data(), text.size()) != ssize_t(text.size())) {
    close(fd);
    return -1;
  }
  return fd;
}

// Makes "dash-ooc-<12 random letters and digits>" (mode 0700) in the parent `pfd` and returns
// its name; "" with errno set if it cannot. Local.
std::string make_directory_in(int pfd) {
  static const char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  for (int attempt = 0; attempt < 16; ++attempt) {
    std::uint64_t bits = dash::internal::random_bits();
    std::string name = "dash-ooc-";
    for (int k = 0; k < 12; ++k, bits /= 62) name += kLetters[bits % 62];
    if (mkdirat(pfd, name.c_str(), 0700) == 0) return name;
    if (errno != EEXIST) return {};
  }
  errno = EEXIST;
  return {};
}

}  // namespace

void remove_spill_directory_at_exit();

SpillDirectory& SpillDirectory::instance() {
  std::lock_guard<std::mutex> lock(directory_mutex());
  if (current != nullptr) return *current;
  const std::string parent = parent_directory();
  const auto [resolved, pfd] = open_parent(parent);
  remove_abandoned(pfd);
  const std::string name = make_directory_in(pfd);
  if (name.empty()) {
    const int e = errno;
    close(pfd);
    refuse(parent, std::string("cannot make a directory in it: ") + std::strerror(e));
  }
  const int fd = openat(pfd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0 || st.st_uid != geteuid() || (st.st_mode & 077) != 0) {
    if (fd >= 0) close(fd);
    unlinkat(pfd, name.c_str(), AT_REMOVEDIR);
    close(pfd);
    refuse(parent, "the new directory '" + name + "' is not ours alone");
  }
  fchmod(fd, 0700);  // whatever the umask
  owner_fd = make_owner_file(fd);
  static bool registered = false;
  if (!registered) {
    std::atexit(remove_spill_directory_at_exit);
    registered = true;
  }
  current = new SpillDirectory(resolved + (resolved == "/" ? "" : "/") + name, fd, pfd);
  {
    std::lock_guard<std::mutex> files(files_mutex);
    files_path = current->path();
    files_fd = fd;
  }
  std::snprintf(signal_dir_name, sizeof signal_dir_name, "%s", name.c_str());
  signal_parent_fd = pfd;
  signal_dir_fd = fd;
  install_handlers();
  return *current;
}

bool SpillDirectory::exists() {
  std::lock_guard<std::mutex> lock(directory_mutex());
  return current != nullptr;
}

void SpillDirectory::remove_all() noexcept {
  std::lock_guard<std::mutex> lock(directory_mutex());
  remove_locked(this);
}

void remove_spill_directory_at_exit() { remove_spill_directory(); }

void SpillDirectory::remove_locked(SpillDirectory* d) noexcept {
  if (d == nullptr) return;
  {
    std::lock_guard<std::mutex> files(files_mutex);
    files_path.clear();
    files_fd = -1;
  }
  // The handlers forget the directory first: they must not work on descriptors closed below.
  signal_dir_fd = -1;
  signal_parent_fd = -1;
  remove_files_at(d->fd_);
  const std::size_t slash = d->path_.rfind('/');
  unlinkat(d->parent_fd_, d->path_.c_str() + slash + 1, AT_REMOVEDIR);
  close(d->fd_);
  close(d->parent_fd_);
  if (owner_fd >= 0) {
    close(owner_fd);
    owner_fd = -1;
  }
  if (current == d) {
    current = nullptr;
    delete d;
  }
}

void remove_spill_directory() noexcept {
  std::lock_guard<std::mutex> lock(directory_mutex());
  SpillDirectory::remove_locked(current);
}

namespace {

// The name of `path` in the current spill directory, or nullptr (errno EINVAL) if path is not
// "<directory>/<name>". Called with files_mutex held.
const char* name_in_current(const std::string& path) {
  const std::string& dir = files_path;
  if (files_fd < 0 || path.size() <= dir.size() + 1 || path.compare(0, dir.size(), dir) != 0 ||
      path[dir.size()] != '/' || path.find('/', dir.size() + 1) != std::string::npos) {
    errno = EINVAL;
    return nullptr;
  }
  return path.c_str() + dir.size() + 1;
}

}  // namespace

int spill_open(const std::string& path, int flags, mode_t mode) {
  std::lock_guard<std::mutex> lock(files_mutex);
  const char* name = name_in_current(path);
  return name == nullptr ? -1 : openat(files_fd, name, flags | O_NOFOLLOW | O_CLOEXEC, mode);
}

int spill_unlink(const std::string& path) {
  std::lock_guard<std::mutex> lock(files_mutex);
  const char* name = name_in_current(path);
  return name == nullptr ? -1 : unlinkat(files_fd, name, 0);
}

int spill_rename(const std::string& from, const std::string& to) {
  std::lock_guard<std::mutex> lock(files_mutex);
  const char* a = name_in_current(from);
  const char* b = name_in_current(to);
  return a == nullptr || b == nullptr ? -1 : renameat(files_fd, a, files_fd, b);
}

}  // namespace bp
}  // namespace dash
