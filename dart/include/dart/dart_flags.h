/* Strict parsing of environment flags, one implementation for DART and the C++ layer, so every
 * flag of the library follows the same rules (docs/flags.md):
 *
 *   - the value is taken exactly as given: no leading or trailing blanks, no sign
 *     ('1', not ' 1', '+1' or '-1');
 *   - an empty value is malformed (unset the variable to get the default);
 *   - numbers are decimal digits, overflow is checked, every numeric flag has a maximum;
 *   - byte sizes take an optional suffix K, M, G or T (powers of 1024, either case, optionally
 *     followed by "iB" or "B"): 64M, 64MiB, 4096;
 *   - words compare case-insensitively; text (paths) has no control characters.
 *
 * Each function reads the flag `name` from the environment:
 *   unset              DART_OK, the output (the caller's default) untouched;
 *   set and valid      DART_OK, the output set;
 *   malformed          DART_ERR_INVAL, the output untouched, and (if err != NULL) one line in
 *                      err: "environment flag NAME has malformed value 'VALUE': REASON
 *                      (expected WHAT)" (a value too long or not printable is shown cut
 *                      short or escaped). DART_FLAG_ERROR_SIZE bytes always hold it.
 * They print nothing: the caller reports err its own way (dart_init logs it and returns
 * DART_ERR_INVAL, dash::init throws dash::exception::InvalidArgument). Bad arguments (name or
 * output NULL, min > max, no words) also give DART_ERR_INVAL with a message in err.
 * All of them are local, cost a getenv and a scan of the value, and work before dart_init. */
#ifndef DART__DART_FLAGS_H_
#define DART__DART_FLAGS_H_

#include <dart/dart_types.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Room for any message of the functions below, terminating NUL included. */
#define DART_FLAG_ERROR_SIZE 512

/* A decimal integer in [min, max]. Local. */
dart_ret_t dart_flag_integer(const char* name, uint64_t min, uint64_t max, uint64_t* value,
                             char* err, size_t errlen);

/* A byte size in [min, max] bytes: digits with an optional K, M, G or T suffix. Local. */
dart_ret_t dart_flag_bytes(const char* name, uint64_t min, uint64_t max, uint64_t* bytes, char* err,
                           size_t errlen);

/* One of nwords words (case-insensitive); *index is its position in words. Local. */
dart_ret_t dart_flag_choice(const char* name, const char* const* words, int nwords, int* index,
                            char* err, size_t errlen);

/* A boolean: 1/0, on/off, true/false, yes/no (case-insensitive); *value is 1 or 0. Local. */
dart_ret_t dart_flag_bool(const char* name, int* value, char* err, size_t errlen);

/* Non-empty text of at most max_length bytes, without leading or trailing blanks or control
 * characters (e.g. a path); *text points into the environment. Local. */
dart_ret_t dart_flag_text(const char* name, size_t max_length, const char** text, char* err,
                          size_t errlen);

/* Checks every DART_* flag as dart_init will read it, without starting anything: DART_OK, or
 * DART_ERR_INVAL with the first malformed flag's message in err. Prints nothing, so a caller
 * (dash::init) can report the reason itself before MPI starts. Local; before or after
 * dart_init. */
dart_ret_t dart_flags_check(char* err, size_t errlen);

/* Checks that each of the n flags `names` (at most 32) has the same value, or is unset, on every
 * unit: DART_OK, or DART_ERR_INVAL on every unit with "environment flag NAME differs between
 * units (this unit: 'VALUE'); set it alike on every unit" for the first that differs in err.
 * For flags that steer collective operations (dart_init agrees on its own: the unit mapping,
 * the topology file, the node and window settings, the watchdog). Prints nothing. Collective
 * over DART_TEAM_ALL: one allreduce of 2n 64-bit words. */
dart_ret_t dart_flags_agree(const char* const* names, size_t n, char* err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* DART__DART_FLAGS_H_ */
