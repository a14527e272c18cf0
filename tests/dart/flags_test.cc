// The strict environment-flag parser of dart_flags.h, one flag kind at a time: what each kind
// accepts, and that blanks, signs, empty values, overflow and values past the maximum are
// refused with a message naming the flag, the value and what is expected, the output left
// alone. Then dart_flags_check over DART's own flags. Local functions: one unit suffices.
#include <dart/dart.h>
#include <dart/dart_flags.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "mpi_test.h"
#include "scoped_env.h"

namespace {

// The flag the tests set; a name no library code reads.
const char* const kFlag = "DART_TEST_FLAGS_TEST_VALUE";

// Sets kFlag for one scope, unsetting it afterwards.
class FlagValue : public dash_test::ScopedEnv {
 public:
  explicit FlagValue(const std::string& value) : ScopedEnv(kFlag, value) {}
};

using SavedFlag = dash_test::ScopedEnv;

// The value of kFlag = text as an integer in [min, max], or the error message.
struct IntegerResult {
  dart_ret_t ret;
  std::uint64_t value;
  std::string err;
};

IntegerResult Integer(const std::string& text, std::uint64_t min, std::uint64_t max) {
  FlagValue flag(text);
  IntegerResult r{DART_OK, 12345, ""};
  char err[DART_FLAG_ERROR_SIZE] = "";
  r.ret = dart_flag_integer(kFlag, min, max, &r.value, err, sizeof err);
  r.err = err;
  return r;
}

IntegerResult Bytes(const std::string& text, std::uint64_t min, std::uint64_t max) {
  FlagValue flag(text);
  IntegerResult r{DART_OK, 12345, ""};
  char err[DART_FLAG_ERROR_SIZE] = "";
  r.ret = dart_flag_bytes(kFlag, min, max, &r.value, err, sizeof err);
  r.err = err;
  return r;
}

// Checks a refusal: DART_ERR_INVAL, output untouched, the message names flag, value, reason and
// what is expected.
void ExpectRefused(const IntegerResult& r, const std::string& shown, const std::string& reason,
                   const std::string& expected) {
  EXPECT_EQ(r.ret, DART_ERR_INVAL) << "'" << shown << "' was accepted as " << r.value;
  EXPECT_EQ(r.value, 12345u) << "output changed on error";
  const std::string head =
      std::string("environment flag ") + kFlag + " has malformed value '" + shown + "': ";
  EXPECT_EQ(r.err.rfind(head, 0), 0u) << r.err;
  EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(expected " + expected), std::string::npos) << r.err;
}

TEST(DartFlags, UnsetFlagLeavesTheDefault) {
  unsetenv(kFlag);
  std::uint64_t value = 7;
  int index = 2, on = 1;
  const char* text = "default";
  static const char* const words[] = {"a", "b"};
  char err[DART_FLAG_ERROR_SIZE] = "untouched";
  EXPECT_EQ(dart_flag_integer(kFlag, 0, 10, &value, err, sizeof err), DART_OK);
  EXPECT_EQ(dart_flag_bytes(kFlag, 0, 10, &value, err, sizeof err), DART_OK);
  EXPECT_EQ(dart_flag_choice(kFlag, words, 2, &index, err, sizeof err), DART_OK);
  EXPECT_EQ(dart_flag_bool(kFlag, &on, err, sizeof err), DART_OK);
  EXPECT_EQ(dart_flag_text(kFlag, 100, &text, err, sizeof err), DART_OK);
  EXPECT_EQ(value, 7u);
  EXPECT_EQ(index, 2);
  EXPECT_EQ(on, 1);
  EXPECT_STREQ(text, "default");
}

TEST(DartFlags, IntegerTakesDigitsWithinTheRange) {
  EXPECT_EQ(Integer("0", 0, 10).value, 0u);
  EXPECT_EQ(Integer("10", 0, 10).value, 10u);
  EXPECT_EQ(Integer("007", 0, 10).value, 7u);
  EXPECT_EQ(Integer("18446744073709551615", 0, UINT64_MAX).value, UINT64_MAX);
}

TEST(DartFlags, IntegerRefusesBlanksSignsEmptyOverflowAndOutOfRange) {
  const std::string expected = "a decimal integer in [1, 1000000]";
  const std::uint64_t max = 1000000;
  ExpectRefused(Integer("", 1, max), "", "empty", expected);
  ExpectRefused(Integer(" 1", 1, max), " 1", "leading or trailing blanks", expected);
  ExpectRefused(Integer("1 ", 1, max), "1 ", "leading or trailing blanks", expected);
  ExpectRefused(Integer("\t1", 1, max), "\\x091", "leading or trailing blanks", expected);
  ExpectRefused(Integer("+1", 1, max), "+1", "a sign", expected);
  ExpectRefused(Integer("-1", 1, max), "-1", "a sign", expected);
  ExpectRefused(Integer(" -1", 1, max), " -1", "blanks", expected);
  ExpectRefused(Integer("1e3", 1, max), "1e3", "not a decimal integer", expected);
  ExpectRefused(Integer("0x10", 1, max), "0x10", "not a decimal integer", expected);
  ExpectRefused(Integer("1 2", 1, max), "1 2", "not a decimal integer", expected);
  ExpectRefused(Integer("1000001", 1, max), "1000001", "above the maximum 1000000", expected);
  ExpectRefused(Integer("0", 1, max), "0", "below the minimum 1", expected);
  ExpectRefused(Integer("99999999999999999999", 1, max), "99999999999999999999",
                "above the maximum", expected);
  // 2^64 wraps to 0 in a careless parser.
  ExpectRefused(Integer("18446744073709551616", 0, UINT64_MAX), "18446744073709551616",
                "above the maximum 18446744073709551615",
                "a decimal integer in [0, 18446744073709551615]");
}

TEST(DartFlags, BytesTakeSuffixesInEitherCase) {
  const std::uint64_t tib = std::uint64_t(1) << 40;
  EXPECT_EQ(Bytes("4096", 1, tib).value, 4096u);
  EXPECT_EQ(Bytes("4K", 1, tib).value, 4096u);
  EXPECT_EQ(Bytes("4k", 1, tib).value, 4096u);
  EXPECT_EQ(Bytes("4KiB", 1, tib).value, 4096u);
  EXPECT_EQ(Bytes("4kb", 1, tib).value, 4096u);
  EXPECT_EQ(Bytes("64M", 1, tib).value, std::uint64_t(64) << 20);
  EXPECT_EQ(Bytes("2G", 1, tib).value, std::uint64_t(2) << 30);
  EXPECT_EQ(Bytes("1T", 1, tib).value, tib);
  EXPECT_EQ(Bytes("0", 0, tib).value, 0u);
}

TEST(DartFlags, BytesRefuseBlanksSignsEmptyOverflowAndOutOfRange) {
  const std::uint64_t tib = std::uint64_t(1) << 40;
  const std::string expected = "a byte size in [1, 1T]";
  ExpectRefused(Bytes("", 1, tib), "", "empty", expected);
  ExpectRefused(Bytes(" -1", 1, tib), " -1", "blanks", expected);
  ExpectRefused(Bytes("64M ", 1, tib), "64M ", "blanks", expected);
  ExpectRefused(Bytes("+1", 1, tib), "+1", "a sign", expected);
  ExpectRefused(Bytes("-1", 1, tib), "-1", "a sign", expected);
  ExpectRefused(Bytes("M", 1, tib), "M", "not a byte size", expected);
  ExpectRefused(Bytes("64Q", 1, tib), "64Q", "unknown suffix 'Q'", expected);
  ExpectRefused(Bytes("64iB", 1, tib), "64iB", "unknown suffix", expected);
  ExpectRefused(Bytes("64 M", 1, tib), "64 M", "unknown suffix", expected);
  ExpectRefused(Bytes("0", 1, tib), "0", "below the minimum 1", expected);
  ExpectRefused(Bytes("2T", 1, tib), "2T", "above the maximum 1T", expected);
  ExpectRefused(Bytes("1099511627777", 1, tib), "1099511627777", "above the maximum", expected);
  // What used to wrap the pool's window size: 2^64 - 1 bytes, and a suffix that overflows.
  ExpectRefused(Bytes("18446744073709551615", 1, tib), "18446744073709551615", "above the maximum",
                expected);
  ExpectRefused(Bytes("17179869184G", 1, tib), "17179869184G", "above the maximum", expected);
  ExpectRefused(Bytes("99999999999999999999", 1, tib), "99999999999999999999", "above the maximum",
                expected);
  ExpectRefused(Bytes("4096", 64, 1024), "4096", "above the maximum 1K", "a byte size in [64, 1K]");
}

TEST(DartFlags, ChoiceAndBoolMatchWholeWordsCaseInsensitively) {
  static const char* const words[] = {"auto", "spin", "yield"};
  char err[DART_FLAG_ERROR_SIZE] = "";
  int index = -1;
  {
    FlagValue flag("SPIN");
    EXPECT_EQ(dart_flag_choice(kFlag, words, 3, &index, err, sizeof err), DART_OK);
    EXPECT_EQ(index, 1);
  }
  for (const char* bad : {"", " spin", "spin ", "sp in", "spinning", "+spin"}) {
    FlagValue flag(bad);
    index = -1;
    EXPECT_EQ(dart_flag_choice(kFlag, words, 3, &index, err, sizeof err), DART_ERR_INVAL) << bad;
    EXPECT_EQ(index, -1);
    EXPECT_NE(std::string(err).find(std::string(kFlag) + " has malformed value '" + bad + "'"),
              std::string::npos)
        << err;
    EXPECT_NE(std::string(err).find("(expected auto|spin|yield)"), std::string::npos) << err;
  }
  const std::pair<const char*, int> good[] = {{"1", 1},    {"0", 0},     {"on", 1},  {"OFF", 0},
                                              {"True", 1}, {"false", 0}, {"yes", 1}, {"NO", 0}};
  for (const auto& g : good) {
    FlagValue flag(g.first);
    int on = -1;
    EXPECT_EQ(dart_flag_bool(kFlag, &on, err, sizeof err), DART_OK) << g.first;
    EXPECT_EQ(on, g.second) << g.first;
  }
  for (const char* bad : {"", " 1", "1 ", "+1", "-1", "2", "10", "y", "maybe"}) {
    FlagValue flag(bad);
    int on = -1;
    EXPECT_EQ(dart_flag_bool(kFlag, &on, err, sizeof err), DART_ERR_INVAL) << bad;
    EXPECT_EQ(on, -1);
    EXPECT_NE(std::string(err).find("(expected 1 or 0"), std::string::npos) << err;
  }
}

TEST(DartFlags, TextIsNonEmptyWithoutBlanksAroundItOrControlCharacters) {
  char err[DART_FLAG_ERROR_SIZE] = "";
  const char* text = nullptr;
  {
    FlagValue flag("/some/path with blank.txt");
    EXPECT_EQ(dart_flag_text(kFlag, 100, &text, err, sizeof err), DART_OK);
    ASSERT_NE(text, nullptr);
    EXPECT_STREQ(text, "/some/path with blank.txt");
  }
  for (const char* bad : {"", " /a", "/a ", "/a\nb"}) {
    FlagValue flag(bad);
    text = nullptr;
    EXPECT_EQ(dart_flag_text(kFlag, 100, &text, err, sizeof err), DART_ERR_INVAL) << bad;
    EXPECT_EQ(text, nullptr);
    EXPECT_NE(std::string(err).find(kFlag), std::string::npos) << err;
  }
  {
    FlagValue flag(std::string(101, 'x'));
    EXPECT_EQ(dart_flag_text(kFlag, 100, &text, err, sizeof err), DART_ERR_INVAL);
    EXPECT_NE(std::string(err).find("101 bytes long"), std::string::npos) << err;
  }
}

TEST(DartFlags, MessagesStayOneShortLine) {
  const IntegerResult r = Integer(std::string(5000, '7') + "\n\x01", 0, 10);
  EXPECT_EQ(r.ret, DART_ERR_INVAL);
  EXPECT_LT(r.err.size(), std::size_t(DART_FLAG_ERROR_SIZE));
  EXPECT_EQ(r.err.find('\n'), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'" + std::string(64, '7') + "...'"), std::string::npos) << r.err;
  // A small buffer gets a cut message, still terminated; none at all is fine too.
  FlagValue flag("x");
  std::uint64_t value = 0;
  char small[16];
  EXPECT_EQ(dart_flag_integer(kFlag, 0, 10, &value, small, sizeof small), DART_ERR_INVAL);
  EXPECT_EQ(std::string(small), std::string("environment fla"));
  EXPECT_EQ(dart_flag_integer(kFlag, 0, 10, &value, nullptr, 0), DART_ERR_INVAL);
}

TEST(DartFlags, BadArgumentsAreRefused) {
  char err[DART_FLAG_ERROR_SIZE] = "";
  std::uint64_t value = 0;
  int index = 0;
  EXPECT_EQ(dart_flag_integer(nullptr, 0, 1, &value, err, sizeof err), DART_ERR_INVAL);
  EXPECT_EQ(dart_flag_integer(kFlag, 0, 1, nullptr, err, sizeof err), DART_ERR_INVAL);
  EXPECT_EQ(dart_flag_bytes(kFlag, 2, 1, &value, err, sizeof err), DART_ERR_INVAL);
  EXPECT_NE(std::string(err).find("dart_flag_bytes"), std::string::npos) << err;
  EXPECT_EQ(dart_flag_choice(kFlag, nullptr, 1, &index, err, sizeof err), DART_ERR_INVAL);
  EXPECT_EQ(dart_flag_bool(kFlag, nullptr, err, sizeof err), DART_ERR_INVAL);
  EXPECT_EQ(dart_flag_text(kFlag, 0, nullptr, err, sizeof err), DART_ERR_INVAL);
}

// dart_flags_check reads DART's flags as dart_init does: each kind of DART flag refuses the
// values that used to slip through.
TEST(DartFlags, CheckRefusesEveryKindOfDartFlagThatIsMalformed) {
  char err[DART_FLAG_ERROR_SIZE] = "";
  ASSERT_EQ(dart_flags_check(err, sizeof err), DART_OK) << err;  // this run's own flags
  const std::pair<const char*, const char*> bad[] = {
      {"DART_LOCAL_POOL_SIZE", "18446744073709551615"},
      {"DART_LOCAL_POOL_SIZE", " -1"},
      {"DART_LOCAL_POOL_SIZE", "2T"},
      {"DART_TRANSFER_CHUNK_SIZE", "2G"},
      {"DART_VIRTUAL_NODE_SIZE", "+1"},
      {"DART_VIRTUAL_NODE_SIZE", " 1"},
      {"DART_VIRTUAL_NODE_SIZE", "65537"},
      {"DART_UNIT_MAPPING_DIMS", "04 "},
      {"DART_SHARED_WINDOWS", ""},
      {"DART_TEST_FORCE_WINDOW_PAIR", " 0"},
      {"DART_TEST_HWLOC_FAIL", "yes"},
      {"DART_LOG_LEVEL", "warn "},
      {"DART_WAIT", ""},
      {"DART_UNIT_MAPPING", " none"},
      {"DART_UNIT_MAPPING_FALLBACK", ""},
      {"DART_TOPOLOGY_FILE", ""},
      {"DART_TOPOLOGY_FILE", " /etc/hosts"},
  };
  for (const auto& b : bad) {
    SavedFlag flag(b.first, b.second);
    EXPECT_EQ(dart_flags_check(err, sizeof err), DART_ERR_INVAL)
        << b.first << "='" << b.second << "' was accepted";
    EXPECT_EQ(std::string(err).rfind(std::string("environment flag ") + b.first, 0), 0u) << err;
  }
  const std::pair<const char*, const char*> good[] = {
      {"DART_LOCAL_POOL_SIZE", "1T"},     {"DART_VIRTUAL_NODE_SIZE", "65536"},
      {"DART_TRANSFER_CHUNK_SIZE", "1G"}, {"DART_TRANSFER_CHUNK_SIZE", "64"},
      {"DART_UNIT_MAPPING_DIMS", "4"},    {"DART_LOG_LEVEL", "WARN"},
  };
  for (const auto& g : good) {
    SavedFlag flag(g.first, g.second);
    EXPECT_EQ(dart_flags_check(err, sizeof err), DART_OK)
        << g.first << "=" << g.second << ": " << err;
  }
  EXPECT_EQ(dart_flags_check(nullptr, 0), DART_OK);
}

}  // namespace
