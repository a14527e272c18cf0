/* Strict parsing of environment flags (dart_flags.h): the rules every flag of the library
 * follows, in one place. */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */
#include <ctype.h>
#include <dart/dart_flags.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Longest part of a value quoted in a message. */
enum { QUOTED_MAX = 64 };

/* Writes text into out (room for 4 * QUOTED_MAX + 4 bytes) with control characters escaped as
 * \xNN, cut short with "..." after QUOTED_MAX bytes: a message stays one readable line. */
static void quote(const char* text, char* out) {
  size_t n = 0;
  const unsigned char* c = (const unsigned char*)text;
  for (; *c != '\0' && c - (const unsigned char*)text < QUOTED_MAX; ++c) {
    if (*c < 0x20 || *c == 0x7f) {
      n += (size_t)sprintf(out + n, "\\x%02x", *c);
    } else {
      out[n++] = (char)*c;
    }
  }
  if (*c != '\0') {
    memcpy(out + n, "...", 3);
    n += 3;
  }
  out[n] = '\0';
}

/* "environment flag NAME has malformed value 'TEXT': REASON (expected EXPECTED)" into err;
 * returns DART_ERR_INVAL. */
static dart_ret_t __attribute__((format(printf, 6, 7)))
malformed(char* err, size_t errlen, const char* name, const char* text, const char* expected,
          const char* reason_fmt, ...) {
  if (err == NULL || errlen == 0) return DART_ERR_INVAL;
  char quoted[4 * QUOTED_MAX + 4];
  quote(text, quoted);
  char reason[160];
  va_list args;
  va_start(args, reason_fmt);
  vsnprintf(reason, sizeof reason, reason_fmt, args);
  va_end(args);
  snprintf(err, errlen, "environment flag %.64s has malformed value '%s': %s (expected %s)", name,
           quoted, reason, expected);
  return DART_ERR_INVAL;
}

/* A misuse of the functions themselves. */
static dart_ret_t bad_call(char* err, size_t errlen, const char* call, const char* what) {
  if (err != NULL && errlen > 0) snprintf(err, errlen, "%s: %s", call, what);
  return DART_ERR_INVAL;
}

/* The reason text breaks the shared rules (empty, blanks around it, control characters), or
 * NULL. */
static const char* common_fault(const char* text) {
  if (*text == '\0') return "empty (unset the variable for the default)";
  size_t len = strlen(text);
  if (isspace((unsigned char)text[0]) || isspace((unsigned char)text[len - 1])) {
    return "leading or trailing blanks";
  }
  for (const unsigned char* c = (const unsigned char*)text; *c != '\0'; ++c) {
    if (*c < 0x20 || *c == 0x7f) return "a control character";
  }
  return NULL;
}

/* Byte count as the shortest exact form: 1T, 64M, 4K or plain digits. */
static void format_bytes(uint64_t bytes, char* out, size_t outlen) {
  static const char suffix[] = {'T', 'G', 'M', 'K'};
  for (int i = 0; i < 4; ++i) {
    unsigned shift = (unsigned)(40 - 10 * i);
    if (bytes != 0 && bytes % ((uint64_t)1 << shift) == 0) {
      snprintf(out, outlen, "%llu%c", (unsigned long long)(bytes >> shift), suffix[i]);
      return;
    }
  }
  snprintf(out, outlen, "%llu", (unsigned long long)bytes);
}

/* Reads a run of decimal digits at *s (advancing *s); false if there is none, *overflow set
 * when it does not fit 64 bits. */
static bool read_digits(const char** s, uint64_t* value, bool* overflow) {
  const char* c = *s;
  uint64_t v = 0;
  *overflow = false;
  while (*c >= '0' && *c <= '9') {
    unsigned d = (unsigned)(*c - '0');
    if (v > (UINT64_MAX - d) / 10) *overflow = true;
    v = v * 10 + d;
    ++c;
  }
  if (c == *s) return false;
  *s = c;
  *value = v;
  return true;
}

dart_ret_t dart_flag_integer(const char* name, uint64_t min, uint64_t max, uint64_t* value,
                             char* err, size_t errlen) {
  if (name == NULL || value == NULL || min > max) {
    return bad_call(err, errlen, "dart_flag_integer", "needs a name, an output and min <= max");
  }
  const char* text = getenv(name);
  if (text == NULL) return DART_OK;
  char expected[96];
  snprintf(expected, sizeof expected, "a decimal integer in [%llu, %llu]", (unsigned long long)min,
           (unsigned long long)max);
  const char* fault = common_fault(text);
  if (fault != NULL) return malformed(err, errlen, name, text, expected, "%s", fault);
  if (text[0] == '+' || text[0] == '-') {
    return malformed(err, errlen, name, text, expected, "a sign");
  }
  const char* c = text;
  uint64_t v = 0;
  bool overflow = false;
  if (!read_digits(&c, &v, &overflow) || *c != '\0') {
    return malformed(err, errlen, name, text, expected, "not a decimal integer");
  }
  if (overflow || v > max) {
    return malformed(err, errlen, name, text, expected, "above the maximum %llu",
                     (unsigned long long)max);
  }
  if (v < min) {
    return malformed(err, errlen, name, text, expected, "below the minimum %llu",
                     (unsigned long long)min);
  }
  *value = v;
  return DART_OK;
}

dart_ret_t dart_flag_bytes(const char* name, uint64_t min, uint64_t max, uint64_t* bytes, char* err,
                           size_t errlen) {
  if (name == NULL || bytes == NULL || min > max) {
    return bad_call(err, errlen, "dart_flag_bytes", "needs a name, an output and min <= max");
  }
  const char* text = getenv(name);
  if (text == NULL) return DART_OK;
  char lo[32], hi[32], expected[192];
  format_bytes(min, lo, sizeof lo);
  format_bytes(max, hi, sizeof hi);
  snprintf(expected, sizeof expected,
           "a byte size in [%s, %s]: digits and an optional K, M, G or T suffix, e.g. 64M", lo, hi);
  const char* fault = common_fault(text);
  if (fault != NULL) return malformed(err, errlen, name, text, expected, "%s", fault);
  if (text[0] == '+' || text[0] == '-') {
    return malformed(err, errlen, name, text, expected, "a sign");
  }
  const char* c = text;
  uint64_t v = 0;
  bool overflow = false;
  if (!read_digits(&c, &v, &overflow)) {
    return malformed(err, errlen, name, text, expected, "not a byte size");
  }
  const char* suffix = c;
  unsigned shift = 0;
  switch (*c) {
    case 'k':
    case 'K':
      shift = 10;
      break;
    case 'm':
    case 'M':
      shift = 20;
      break;
    case 'g':
    case 'G':
      shift = 30;
      break;
    case 't':
    case 'T':
      shift = 40;
      break;
    default:
      break;
  }
  if (shift > 0) {
    ++c;
    if (*c == 'i' || *c == 'I') ++c;
  }
  if (*c == 'b' || *c == 'B') ++c;
  if (*c != '\0') {
    return malformed(err, errlen, name, text, expected, "unknown suffix '%.16s'", suffix);
  }
  if (overflow || v > (UINT64_MAX >> shift) || (v << shift) > max) {
    return malformed(err, errlen, name, text, expected, "above the maximum %s", hi);
  }
  if ((v << shift) < min) {
    return malformed(err, errlen, name, text, expected, "below the minimum %s", lo);
  }
  *bytes = v << shift;
  return DART_OK;
}

/* Position of text among words (case-insensitive), or -1. */
static int find_word(const char* text, const char* const* words, int nwords) {
  for (int i = 0; i < nwords; ++i) {
    if (words[i] != NULL && strcasecmp(text, words[i]) == 0) return i;
  }
  return -1;
}

dart_ret_t dart_flag_choice(const char* name, const char* const* words, int nwords, int* index,
                            char* err, size_t errlen) {
  if (name == NULL || words == NULL || nwords <= 0 || index == NULL) {
    return bad_call(err, errlen, "dart_flag_choice", "needs a name, words and an output");
  }
  const char* text = getenv(name);
  if (text == NULL) return DART_OK;
  const int found = find_word(text, words, nwords);
  if (found >= 0) {
    *index = found;
    return DART_OK;
  }
  char expected[256];
  size_t n = 0;
  for (int i = 0; i < nwords && n < sizeof expected; ++i) {
    int w = snprintf(expected + n, sizeof expected - n, "%s%s", i > 0 ? "|" : "",
                     words[i] != NULL ? words[i] : "");
    if (w < 0) break;
    n += (size_t)w;
  }
  const char* fault = common_fault(text);
  return malformed(err, errlen, name, text, expected, "%s",
                   fault != NULL ? fault : "not one of the words");
}

dart_ret_t dart_flag_bool(const char* name, int* value, char* err, size_t errlen) {
  static const char* const words[] = {"0", "1", "off", "on", "false", "true", "no", "yes"};
  if (name == NULL || value == NULL) {
    return bad_call(err, errlen, "dart_flag_bool", "needs a name and an output");
  }
  const char* text = getenv(name);
  if (text == NULL) return DART_OK;
  const int found = find_word(text, words, 8);
  if (found >= 0) {
    *value = found % 2;
    return DART_OK;
  }
  const char* fault = common_fault(text);
  return malformed(err, errlen, name, text, "1 or 0 (also on/off, true/false, yes/no)", "%s",
                   fault != NULL ? fault : "not a boolean");
}

dart_ret_t dart_flag_text(const char* name, size_t max_length, const char** text, char* err,
                          size_t errlen) {
  if (name == NULL || text == NULL || max_length == 0) {
    return bad_call(err, errlen, "dart_flag_text", "needs a name, an output and max_length > 0");
  }
  const char* value = getenv(name);
  if (value == NULL) return DART_OK;
  char expected[128];
  snprintf(expected, sizeof expected,
           "non-empty text of at most %zu bytes without blanks around it", max_length);
  const char* fault = common_fault(value);
  if (fault != NULL) return malformed(err, errlen, name, value, expected, "%s", fault);
  if (strlen(value) > max_length) {
    return malformed(err, errlen, name, value, expected, "%zu bytes long", strlen(value));
  }
  *text = value;
  return DART_OK;
}
