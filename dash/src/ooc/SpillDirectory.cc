// The unit's spill directory (dash/ooc/SpillDirectory.h).
#include <dart/dart_flags.h>
#include <dart/dart_initialization.h>
#include <dash/Exception.h>
#include <dash/ooc/SpillDirectory.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "ooc/SpentFiles.h"

namespace dash {
namespace ooc {

namespace {

std::mutex& directory_mutex() {
  static std::mutex* m = new std::mutex;  // never destroyed: used at exit
  return *m;
}

SpillDirectory* current = nullptr;  // guarded by directory_mutex()

// What the signal handler needs, prepared before it can run: the
// directory's descriptor and path (no allocation in the handler).
int signal_dir_fd = -1;
char signal_dir_path[4096];
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
    rmdir(signal_dir_path);
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
  char err[DART_FLAG_ERROR_SIZE];
  const char* dir = nullptr;
  if (dart_flag_text("DASH_OOC_DIR", 4000, &dir, err, sizeof err) != DART_OK)
    throw exception::InvalidArgument(std::string("dash::ooc::SpillDirectory: ") + err);
  if (dir != nullptr) return dir;
  const char* tmp = std::getenv("TMPDIR");
  if (tmp != nullptr && tmp[0] != '\0') return tmp;
  return "/tmp";
}

[[noreturn]] void refuse(const std::string& parent, const std::string& why) {
  throw exception::InvalidArgument("dash::ooc::SpillDirectory: cannot keep out-of-core data in '" +
                                   parent + "' (DASH_OOC_DIR, else $TMPDIR, else /tmp): " + why);
}

// Checks that the parent directory is safe to make a private directory in.
void check_parent(const std::string& parent) {
  struct stat link;
  if (lstat(parent.c_str(), &link) != 0) refuse(parent, std::strerror(errno));
  struct stat st = link;
  if (S_ISLNK(link.st_mode)) {
    if (stat(parent.c_str(), &st) != 0) refuse(parent, std::string("a dangling symlink"));
    if (st.st_uid != geteuid() && st.st_uid != 0)
      refuse(parent,
             "a symlink to a directory of another user (uid " + std::to_string(st.st_uid) + ")");
  }
  if (!S_ISDIR(st.st_mode)) refuse(parent, "not a directory");
  if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
    refuse(parent, "world-writable without the sticky bit (anyone could replace our files)");
  if (access(parent.c_str(), W_OK | X_OK) != 0)
    refuse(parent, std::string("not writable: ") + std::strerror(errno));
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
// flock). Local: one directory scan of the parent.
void remove_abandoned(const std::string& parent) {
  const int pfd = open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (pfd < 0) return;
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
  close(pfd);
}

// Makes the owner file of the new directory `path`, locks it and writes "<pid> <host>". Returns
// its descriptor, or -1 (the directory then works, but is not reaped if its unit is killed).
int make_owner_file(const std::string& path) {
  const int dir = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dir < 0) return -1;
  const int fd = openat(dir, kOwnerFile, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  close(dir);
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

}  // namespace

void remove_spill_directory_at_exit();

SpillDirectory& SpillDirectory::instance() {
  std::lock_guard<std::mutex> lock(directory_mutex());
  if (current != nullptr) return *current;
  const std::string parent = parent_directory();
  check_parent(parent);
  remove_abandoned(parent);
  std::string templ = parent + (parent.back() == '/' ? "" : "/") + "dash-ooc-XXXXXX";
  if (templ.size() >= sizeof signal_dir_path) refuse(parent, "the path is too long");
  if (mkdtemp(&templ[0]) == nullptr)
    refuse(parent, std::string("mkdtemp: ") + std::strerror(errno));
  chmod(templ.c_str(), 0700);
  owner_fd = make_owner_file(templ);
  static bool registered = false;
  if (!registered) {
    std::atexit(remove_spill_directory_at_exit);
    registered = true;
  }
  current = new SpillDirectory(templ);
  std::strcpy(signal_dir_path, templ.c_str());
  signal_dir_fd = open(templ.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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
  detail::spent_files().forget();  // removed below with the rest
  const std::string& path_ = d->path_;
  const int dir = open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dir >= 0) {
    remove_files_at(dir);
    close(dir);
  }
  rmdir(path_.c_str());
  if (owner_fd >= 0) {
    close(owner_fd);
    owner_fd = -1;
  }
  if (signal_dir_fd >= 0) {
    const int fd = signal_dir_fd;
    signal_dir_fd = -1;
    close(fd);
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

}  // namespace ooc
}  // namespace dash
