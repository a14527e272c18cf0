// Reading the C++ layer's flags through their table (dash/internal/Flags.h).
#include <dart/dart_flags.h>
#include <dash/Exception.h>
#include <dash/internal/Flags.h>

#include <initializer_list>
#include <string>

namespace dash {
namespace internal {

namespace {

// Reads flag f by its kind into `number` (integer, bytes, boolean, choice) or `text`; returns
// DART_OK or DART_ERR_INVAL with the parser's message in err. Local.
dart_ret_t parse(const FlagSpec& s, std::uint64_t& number, const char*& text, char* err,
                 std::size_t errlen) {
  switch (s.kind) {
    case FlagKind::integer:
      return dart_flag_integer(s.name, s.min, s.max, &number, err, errlen);
    case FlagKind::bytes:
      return dart_flag_bytes(s.name, s.min, s.max, &number, err, errlen);
    case FlagKind::boolean: {
      int value = int(number);
      const dart_ret_t ret = dart_flag_bool(s.name, &value, err, errlen);
      number = std::uint64_t(value);
      return ret;
    }
    case FlagKind::choice: {
      int index = int(number);
      const dart_ret_t ret = dart_flag_choice(s.name, s.words, s.nwords, &index, err, errlen);
      number = std::uint64_t(index);
      return ret;
    }
    case FlagKind::text:
      return dart_flag_text(s.name, std::size_t(s.max), &text, err, errlen);
  }
  return DART_ERR_INVAL;
}

// Flag f's value or default (text: nullptr when unset); throws InvalidArgument naming `who`.
std::uint64_t read(Flag f, const char* who, const char** text_out) {
  const FlagSpec& s = flag_spec(f);
  std::uint64_t number = s.fallback;
  const char* text = nullptr;
  char err[DART_FLAG_ERROR_SIZE];
  if (parse(s, number, text, err, sizeof err) != DART_OK)
    throw exception::InvalidArgument(std::string(who) + ": " + err);
  if (text_out != nullptr) *text_out = text;
  return number;
}

// Throws InvalidArgument unless flag f is of one of the kinds `reader` reads (a misuse in the
// library: a flag read by the wrong function). Local, O(kinds).
void expect_kind(Flag f, std::initializer_list<FlagKind> kinds, const char* reader) {
  const FlagSpec& s = flag_spec(f);
  for (FlagKind k : kinds)
    if (s.kind == k) return;
  throw exception::InvalidArgument(std::string("dash::internal: flag ") + s.name +
                                   " is not of a kind " + reader + " reads");
}

}  // namespace

std::uint64_t read_flag_number(Flag f, const char* who) {
  expect_kind(f, {FlagKind::integer, FlagKind::bytes}, "read_flag_number");
  return read(f, who, nullptr);
}

bool read_flag_bool(Flag f, const char* who) {
  expect_kind(f, {FlagKind::boolean}, "read_flag_bool");
  return read(f, who, nullptr) != 0;
}

int read_flag_choice(Flag f, const char* who) {
  expect_kind(f, {FlagKind::choice}, "read_flag_choice");
  return int(read(f, who, nullptr));
}

const char* read_flag_text(Flag f, const char* who) {
  expect_kind(f, {FlagKind::text}, "read_flag_text");
  const char* text = nullptr;
  read(f, who, &text);
  return text;
}

bool read_flag_bool_or_default(Flag f) noexcept {
  const FlagSpec& s = flag_spec(f);
  if (s.kind != FlagKind::boolean) return false;
  std::uint64_t number = s.fallback;
  const char* text = nullptr;
  char err[DART_FLAG_ERROR_SIZE];
  if (parse(s, number, text, err, sizeof err) != DART_OK) return s.fallback != 0;
  return number != 0;
}

void check_flags(const char* who) {
  for (const FlagSpec& s : kFlags)
    if (s.checked_at_init) read(s.flag, who, nullptr);
}

std::vector<const char*> agreed_flag_names() {
  std::vector<const char*> names;
  for (const FlagSpec& s : kFlags)
    if (s.agreed) names.push_back(s.name);
  return names;
}

}  // namespace internal
}  // namespace dash
