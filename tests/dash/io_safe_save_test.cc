// dash::io::save and dash::bp::save cannot be turned against other files: symlinks another user
// plants for every name a save could use change nothing outside the directory; a target that is
// a symlink, a device, a FIFO or another user's file is refused (and left as it was); loading a
// FIFO fails instead of waiting for ever; temporaries of dead saves are removed by the next save
// to the same path. The second user is `nobody` (uid 65534), taken by a child process of unit 0:
// the cases that need it are skipped with a message when not run as root.
#include <dart/dart.h>
#include <dash/Array.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/bp/Master.h>
#include <dash/bp/SaveLoad.h>
#include <dash/io/Save.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "io_test_support.h"
#include "mpi_test.h"
#include "shared_dir.h"

namespace {

using dash_test::Contents;
using dash_test::ExpectThrowEverywhere;
using dash_test::myid;
using dash_test::nunits;
using dash_test::SharedDir;

constexpr uid_t kNobody = 65534;

bool Root() { return geteuid() == 0; }

// Runs f (returning bool) as user nobody in a child process of the calling unit; true if it ran
// and returned true. Local.
template <class F>
bool AsNobody(F&& f) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (setgroups(0, nullptr) != 0 || setgid(kNobody) != 0 || setuid(kNobody) != 0) _exit(3);
    _exit(f() ? 0 : 4);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// A directory in /tmp that every user may write to, with the sticky bit (as /tmp itself), shared
// by the units; removed at the end. Collective.
class StickyDir : public SharedDir {
 public:
  StickyDir() {
    if (myid() == 0 && ok()) chmod(path().c_str(), 01777);
    dart_barrier(DART_TEAM_ALL);
  }
};

// Saves an array of n values (dash_test::Value of the index) to path with dash::io::save.
// Collective.
void SaveArray(const std::string& path, std::size_t n = 1000) {
  dash::Array<std::int64_t> a(n);
  dash_test::Fill(a);
  dash::io::save(a, path);
}

// Loads path into an array of n values and checks them on every unit. Collective.
void ExpectArray(const std::string& path, std::size_t n = 1000) {
  dash::Array<std::int64_t> a(n);
  dash::io::load(path, a);
  dash_test::ExpectValues(a);
}

// A master of 5 blocks, block g holding g * 11, saved to path with dash::bp::save. Collective.
void SaveBlocks(const std::string& path) {
  dash::bp::Master<std::int64_t> m(5, dash::bp::Assignment::contiguous);
  for (int gid : dash::bp::local_gids(myid(), 5, nunits(), dash::bp::Assignment::contiguous))
    m.add(gid, std::make_unique<std::int64_t>(gid * 11), {});
  dash::bp::save(m, path);
}

void ExpectBlocks(const std::string& path) {
  dash::bp::Master<std::int64_t> m(5, dash::bp::Assignment::contiguous);
  dash::bp::load(m, path);
  for (std::size_t i = 0; i < m.size(); ++i) EXPECT_EQ(m.block(i), std::int64_t(m.gid(i)) * 11);
}

bool IsRegularOfRoot(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid();
}

TEST(SafeSave, PlantedSymlinks_ChangeNothingOutsideTheDirectory) {
  if (!Root()) GTEST_SKIP() << "needs root, to plant the symlinks as a second user (nobody)";
  StickyDir dir;
  SharedDir outside;  // root's own, 0700: what the planted links point at
  ASSERT_TRUE(dir.ok() && outside.ok());
  const std::string victim = outside.file("victim"), array = dir.file("a.bin"),
                    blocks = dir.file("b.ckpt");
  int planted = 0;
  if (myid() == 0) {
    std::ofstream(victim) << "precious\n";
    // Every name the saves ever used for their temporaries: "<path>.tmp" and "<path>.tmp.<pid>"
    // for pids around unit 0's.
    const pid_t me = getpid();
    planted = AsNobody([&] {
      for (const std::string& target : {array, blocks}) {
        if (symlink(victim.c_str(), (target + ".tmp").c_str()) != 0) return false;
        for (pid_t p = me > 200 ? me - 200 : 1; p < me + 2000; ++p)
          if (symlink(victim.c_str(), (target + ".tmp." + std::to_string(p)).c_str()) != 0)
            return false;
      }
      return true;
    });
  }
  dash::internal::check_dart(
      dart_bcast(&planted, 1, DART_TYPE_INT, dart_team_unit_t{0}, DART_TEAM_ALL), "bcast");
  ASSERT_TRUE(planted) << "nobody could not plant the symlinks in " << dir.path();
  SaveArray(array);
  SaveBlocks(blocks);
  ExpectArray(array);
  ExpectBlocks(blocks);
  if (myid() == 0) {
    EXPECT_EQ(Contents(victim), "precious\n") << "a save wrote through a planted symlink";
    EXPECT_TRUE(IsRegularOfRoot(array));
    EXPECT_TRUE(IsRegularOfRoot(blocks));
    for (const std::string& name : dir.names()) {  // nothing else made, no link replaced
      if (name == "a.bin" || name == "b.ckpt") continue;
      struct stat st;
      EXPECT_TRUE(lstat(dir.file(name).c_str(), &st) == 0 && S_ISLNK(st.st_mode) &&
                  st.st_uid == kNobody)
          << name;
    }
  }
}

TEST(SafeSave, SymlinkOrForeignTarget_RefusedAndLeftAsItWas) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string victim = dir.file("victim"), link = dir.file("link");
  if (myid() == 0) {
    std::ofstream(victim) << "precious\n";
    ASSERT_EQ(symlink(victim.c_str(), link.c_str()), 0);
  }
  dash::barrier();
  ExpectThrowEverywhere<dash::exception::InvalidArgument>([&] { SaveArray(link); }, "is a symlink");
  ExpectThrowEverywhere<dash::exception::InvalidArgument>([&] { SaveBlocks(link); },
                                                          "is a symlink");
  if (myid() == 0) {
    struct stat st;
    EXPECT_TRUE(lstat(link.c_str(), &st) == 0 && S_ISLNK(st.st_mode));
    EXPECT_EQ(Contents(victim), "precious\n");
  }
  if (!Root()) return;  // a file of another user: only root can make one
  const std::string theirs = dir.file("theirs");
  if (myid() == 0) {
    std::ofstream(theirs) << "theirs\n";
    ASSERT_EQ(chown(theirs.c_str(), kNobody, kNobody), 0);
  }
  dash::barrier();
  ExpectThrowEverywhere<dash::exception::InvalidArgument>([&] { SaveArray(theirs); },
                                                          "belongs to another user");
  ExpectThrowEverywhere<dash::exception::InvalidArgument>([&] { SaveBlocks(theirs); },
                                                          "belongs to another user");
  if (myid() == 0) {
    EXPECT_EQ(Contents(theirs), "theirs\n");
    for (const std::string& name : dir.names()) {
      EXPECT_TRUE(name == "victim" || name == "link" || name == "theirs") << "left: " << name;
    }
  }
}

TEST(SafeSave, DeviceOrFifo_RefusedNeverWaitedOn) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string fifo = dir.file("fifo"), device = dir.file("null");
  int have_device = 0;
  if (myid() == 0) {
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    // A copy of /dev/null's node (root only): what a save onto "/dev/null" would meet.
    have_device = Root() && mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0;
  }
  dash::internal::check_dart(
      dart_bcast(&have_device, 1, DART_TYPE_INT, dart_team_unit_t{0}, DART_TEAM_ALL), "bcast");
  ExpectThrowEverywhere<dash::exception::InvalidArgument>([&] { SaveArray(fifo); }, "a FIFO");
  ExpectThrowEverywhere<dash::exception::InvalidArgument>([&] { SaveBlocks(fifo); }, "a FIFO");
  ExpectThrowEverywhere<dash::exception::RuntimeError>([&] { ExpectArray(fifo); }, "a FIFO");
  ExpectThrowEverywhere<dash::exception::RuntimeError>([&] { dash::io::file_layout(fifo); },
                                                       "a FIFO");
  ExpectThrowEverywhere<dash::exception::RuntimeError>([&] { ExpectBlocks(fifo); },
                                                       "not a regular file");
  if (have_device) {
    ExpectThrowEverywhere<dash::exception::InvalidArgument>([&] { SaveArray(device); },
                                                            "a character device");
    ExpectThrowEverywhere<dash::exception::InvalidArgument>([&] { SaveBlocks(device); },
                                                            "a character device");
  }
  if (myid() == 0) {
    struct stat st;
    EXPECT_TRUE(lstat(fifo.c_str(), &st) == 0 && S_ISFIFO(st.st_mode));
    if (have_device) {
      EXPECT_TRUE(lstat(device.c_str(), &st) == 0 && S_ISCHR(st.st_mode));
    }
    for (const std::string& name : dir.names()) {
      EXPECT_TRUE(name == "fifo" || name == "null") << "left: " << name;
    }
  }
}

TEST(SafeSave, TemporariesOfDeadSaves_RemovedByTheNextSave) {
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.file("a.bin");
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  std::string dead, live, elsewhere, other_path;
  if (myid() == 0) {
    const pid_t child = fork();  // a pid that is surely gone once waited for
    if (child == 0) _exit(0);
    ASSERT_GT(child, 0);
    waitpid(child, nullptr, 0);
    const std::string tail = "0123456789abcdef";
    dead = path + ".tmp." + std::to_string(child) + "." + host + "." + tail;
    live = path + ".tmp." + std::to_string(getpid()) + "." + host + "." + tail;
    elsewhere = path + ".tmp." + std::to_string(child) + ".another-host." + tail;
    other_path = dir.file("b.bin") + ".tmp." + std::to_string(child) + "." + host + "." + tail;
    for (const std::string& f : {dead, live, elsewhere, other_path})
      std::ofstream(f) << "an unfinished save";
  }
  SaveArray(path);
  ExpectArray(path);
  if (myid() == 0) {
    struct stat st;
    EXPECT_NE(lstat(dead.c_str(), &st), 0) << "a dead save's temporary is left";
    for (const std::string& f : {live, elsewhere, other_path})
      EXPECT_EQ(lstat(f.c_str(), &st), 0) << f << " must be kept";
  }
}

// Two teams save the same checkpoint path at the same time: each save is whole, the file at the
// path is one of them (never a mixture), nothing is left beside it.
TEST(SafeSave, TwoSavesToOnePathAtOnce_LeaveOneWholeFile) {
  if (nunits() < 2) GTEST_SKIP() << "needs two teams";
  SharedDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.file("c.ckpt");
  dash::Team& halves = dash::Team::All().split(2);
  for (int round = 0; round < 5; ++round) {
    dash::bp::Master<std::int64_t> m(8, dash::bp::Assignment::contiguous, halves);
    const int base = halves.position() == 0 ? 0 : 1000;
    for (int gid : dash::bp::local_gids(int(halves.myid().id), 8, int(halves.size()),
                                        dash::bp::Assignment::contiguous))
      m.add(gid, std::make_unique<std::int64_t>(base + gid), {});
    dash::bp::save(m, path);
    dash::barrier();
    dash::bp::Master<std::int64_t> back(8, dash::bp::Assignment::contiguous);
    dash::bp::load(back, path);
    std::int64_t seen[2] = {1 << 30, 1 << 30};  // the least base seen, minus the most
    for (std::size_t i = 0; i < back.size(); ++i) {
      const std::int64_t base_seen = back.block(i) - back.gid(i);
      EXPECT_TRUE(base_seen == 0 || base_seen == 1000) << "block " << back.gid(i);
      seen[0] = std::min(seen[0], base_seen);
      seen[1] = std::min(seen[1], -base_seen);
    }
    std::int64_t all[2];
    dash::internal::check_dart(
        dart_allreduce(seen, all, 2, DART_TYPE_LONGLONG, DART_OP_MIN, DART_TEAM_ALL), "min");
    EXPECT_EQ(all[0], -all[1]) << "a mixture of two saves (round " << round << ")";
  }
  if (myid() == 0) {
    for (const std::string& name : dir.names()) EXPECT_EQ(name, "c.ckpt") << "left beside it";
  }
}

}  // namespace
