// DART file I/O (dart_io.h): every unit writes its own range collectively and reads any range
// back independently; zero-byte writes; reads past the end are short; a missing file is
// DART_ERR_NOTFOUND on every unit and an uncreatable path DART_ERR_OTHER on every unit; a
// write opened file refuses reads and the reverse; bad arguments are DART_ERR_INVAL.
#include <dart/dart.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

int Me() { return dash_test::myid(); }
int N() { return dash_test::nunits(); }

// A path every unit agrees on, in a fresh directory of unit 0's.
std::string SharedPath(const char* name) {
  char dir[4096] = {};
  if (Me() == 0) {
    const char* t = getenv("TMPDIR");
    std::snprintf(dir, sizeof dir, "%s/dartio-XXXXXX", t != nullptr && t[0] ? t : "/tmp");
    if (mkdtemp(dir) == nullptr) dir[0] = '\0';
  }
  EXPECT_EQ(dart_bcast(dir, sizeof dir, DART_TYPE_BYTE, DART_TEAM_UNIT_ID(0), DART_TEAM_ALL),
            DART_OK);
  return std::string(dir) + "/" + name;
}

void RemoveShared(const std::string& path) {
  dart_barrier(DART_TEAM_ALL);
  if (Me() == 0) {
    std::remove(path.c_str());
    rmdir(path.substr(0, path.rfind('/')).c_str());
  }
}

TEST(DartIo, EachUnitWritesItsRange_AnyUnitReadsAnyRange) {
  const std::string path = SharedPath("ranges");
  const std::size_t per_unit = 1000 + 3;  // odd sizes: offsets not aligned
  dart_file_t f = nullptr;
  ASSERT_EQ(dart_file_open(path.c_str(), DART_FILE_WRITE, DART_TEAM_ALL, &f), DART_OK);
  std::vector<unsigned char> mine(per_unit);
  for (std::size_t i = 0; i < per_unit; ++i) mine[i] = (unsigned char)(Me() * 31 + i);
  EXPECT_EQ(dart_file_write_at_all(f, Me() * per_unit, mine.data(), mine.size()), DART_OK);
  // A round in which only the last unit writes (the others pass no bytes).
  const unsigned char tail[5] = {9, 8, 7, 6, 5};
  EXPECT_EQ(dart_file_write_at_all(f, N() * per_unit, tail, Me() == N() - 1 ? 5 : 0), DART_OK);
  EXPECT_EQ(dart_file_close(&f), DART_OK);
  EXPECT_EQ(f, nullptr);

  ASSERT_EQ(dart_file_open(path.c_str(), DART_FILE_READ, DART_TEAM_ALL, &f), DART_OK);
  std::uint64_t size = 0;
  EXPECT_EQ(dart_file_size(f, &size), DART_OK);
  EXPECT_EQ(size, N() * per_unit + 5);
  const int other = (Me() + 1) % N();
  std::vector<unsigned char> got(per_unit + 100, 0);
  std::size_t n = 0;
  EXPECT_EQ(dart_file_read_at(f, other * per_unit, got.data(), per_unit, &n), DART_OK);
  EXPECT_EQ(n, per_unit);
  for (std::size_t i = 0; i < per_unit; ++i)
    ASSERT_EQ(got[i], (unsigned char)(other * 31 + i)) << "byte " << i << " of unit " << other;
  // Past the end: short.
  EXPECT_EQ(dart_file_read_at(f, size - 3, got.data(), 100, &n), DART_OK);
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(got[0], 7);
  EXPECT_EQ(dart_file_read_at(f, size + 10, got.data(), 10, &n), DART_OK);
  EXPECT_EQ(n, 0u);
  // The wrong direction for the mode.
  EXPECT_EQ(dart_file_write_at_all(f, 0, tail, 1), DART_ERR_INVAL);
  EXPECT_EQ(dart_file_close(&f), DART_OK);
  RemoveShared(path);
}

TEST(DartIo, MissingFileAndUncreatablePath_FailOnEveryUnit) {
  const std::string path = SharedPath("missing");
  dart_file_t f = nullptr;
  EXPECT_EQ(dart_file_open(path.c_str(), DART_FILE_READ, DART_TEAM_ALL, &f), DART_ERR_NOTFOUND);
  EXPECT_EQ(f, nullptr);
  const std::string nowhere = path + "/no/such/dir/file";
  EXPECT_EQ(dart_file_open(nowhere.c_str(), DART_FILE_WRITE, DART_TEAM_ALL, &f), DART_ERR_OTHER);
  EXPECT_EQ(f, nullptr);
  // Writing truncates an existing file.
  ASSERT_EQ(dart_file_open(path.c_str(), DART_FILE_WRITE, DART_TEAM_ALL, &f), DART_OK);
  const char bytes[64] = {1};
  EXPECT_EQ(dart_file_write_at_all(f, 0, bytes, Me() == 0 ? 64 : 0), DART_OK);
  EXPECT_EQ(dart_file_close(&f), DART_OK);
  ASSERT_EQ(dart_file_open(path.c_str(), DART_FILE_WRITE, DART_TEAM_ALL, &f), DART_OK);
  EXPECT_EQ(dart_file_close(&f), DART_OK);
  ASSERT_EQ(dart_file_open(path.c_str(), DART_FILE_READ, DART_TEAM_ALL, &f), DART_OK);
  std::uint64_t size = 1;
  EXPECT_EQ(dart_file_size(f, &size), DART_OK);
  EXPECT_EQ(size, 0u) << "opening for writing truncates";
  char c = 0;
  std::size_t n = 1;
  EXPECT_EQ(dart_file_read_at(f, 0, &c, 0, &n), DART_OK);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(dart_file_close(&f), DART_OK);
  RemoveShared(path);
}

TEST(DartIo, BadArguments) {
  dart_file_t f = nullptr;
  EXPECT_EQ(dart_file_open(nullptr, DART_FILE_READ, DART_TEAM_ALL, &f), DART_ERR_INVAL);
  EXPECT_EQ(dart_file_open("", DART_FILE_READ, DART_TEAM_ALL, &f), DART_ERR_INVAL);
  EXPECT_EQ(dart_file_open("/tmp/x", DART_FILE_READ, DART_TEAM_ALL, nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_file_open("/tmp/x", dart_file_mode_t(7), DART_TEAM_ALL, &f), DART_ERR_INVAL);
  EXPECT_EQ(dart_file_open("/tmp/x", DART_FILE_READ, dart_team_t(77), &f), DART_ERR_INVAL);
  std::size_t n = 0;
  std::uint64_t size = 0;
  char c = 0;
  EXPECT_EQ(dart_file_write_at_all(nullptr, 0, &c, 1), DART_ERR_INVAL);
  EXPECT_EQ(dart_file_read_at(nullptr, 0, &c, 1, &n), DART_ERR_INVAL);
  EXPECT_EQ(dart_file_size(nullptr, &size), DART_ERR_INVAL);
  EXPECT_EQ(dart_file_close(nullptr), DART_ERR_INVAL);
  EXPECT_EQ(dart_file_close(&f), DART_ERR_INVAL);
}

}  // namespace
