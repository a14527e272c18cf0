// A directory every unit of a test shares: made fresh by unit 0 under $TMPDIR (else /tmp),
// removed with its files when the object goes. Collective (a broadcast; a barrier at the end).
#ifndef DASH_TESTS_SUPPORT_SHARED_DIR_H_
#define DASH_TESTS_SUPPORT_SHARED_DIR_H_

#include <dart/dart.h>
#include <dash/Exception.h>
#include <dirent.h>
#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace dash_test {

// A fresh directory shared by the units (made by unit 0), removed with its
// files at the end.
class SharedDir {
 public:
  SharedDir() {
    char name[4096] = {};
    if (myid() == 0) {
      std::string t =
          std::string(getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp") + "/dash-test-XXXXXX";
      std::snprintf(name, sizeof name, "%s", t.c_str());
      if (mkdtemp(name) == nullptr) name[0] = '\0';
    }
    dash::internal::check_dart(
        dart_bcast(name, sizeof name, DART_TYPE_BYTE, dart_team_unit_t{0}, DART_TEAM_ALL), "bcast");
    path_ = name;
  }
  ~SharedDir() {
    dart_barrier(DART_TEAM_ALL);
    if (myid() == 0 && !path_.empty()) {
      std::string cmd = "rm -rf '" + path_ + "'";
      if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "cannot remove %s\n", path_.c_str());
    }
  }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }
  // The names of the files in the directory (unit 0's view).
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    if (DIR* d = opendir(path_.c_str())) {
      while (dirent* e = readdir(d))
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
          out.push_back(e->d_name);
      closedir(d);
    }
    return out;
  }
  bool ok() const { return !path_.empty(); }

 private:
  std::string path_;
};

}  // namespace dash_test

#endif  // DASH_TESTS_SUPPORT_SHARED_DIR_H_
