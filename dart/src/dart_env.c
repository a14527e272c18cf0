/* Environment flags, read once by dart_init through the strict parser of dart_flags.h. Every
 * flag and its maximum is documented in docs/flags.md; a malformed value is an error naming the
 * flag, the value and what is expected. */
#include <dart/dart_flags.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dart_internal.h"
#include "dart_mapping.h"

/* Largest DART_VIRTUAL_NODE_SIZE: more units than any node has cores. */
#define MAX_VIRTUAL_NODE_SIZE 65536
/* DART_LOCAL_POOL_SIZE in [1, 1 TiB]: the window size cannot wrap. */
#define MAX_LOCAL_POOL_SIZE ((uint64_t)1 << 40)
/* DART_TRANSFER_CHUNK_SIZE in [64 B, 1 GiB]. */
#define MIN_TRANSFER_CHUNK_SIZE 64
#define MAX_TRANSFER_CHUNK_SIZE ((uint64_t)1 << 30)
/* DART_WATCHDOG in [0, one week] seconds. */
#define MAX_WATCHDOG_SECONDS (7 * 24 * 3600)

/* Reads every flag into *cfg; on the first malformed one returns DART_ERR_INVAL with the
 * message in err (cfg then unchanged). Logs nothing. */
static dart_ret_t config_parse(dart_config_t* cfg, char* err, size_t errlen) {
  dart_config_t next = {
      .log_level = DART_LOG_WARN,
      .shared_windows = true,
      .virtual_node_size = 0,
      .local_pool_size = (size_t)64 << 20,
      .transfer_chunk_size = (size_t)16 << 20,
      .force_window_pair = false,
      .wait_mode = DART_WAIT_AUTO,
      .test_hwloc_fail = false,
      .unit_mapping = DART_UNIT_MAPPING_NONE,
      .unit_mapping_dims = 3,
      .unit_mapping_fallback = false,
      .topology_file = "",
      .watchdog_seconds = 0,
      .watchdog_action = DART_WATCHDOG_REPORT,
  };
  dart_ret_t ret;

  static const char* const log_levels[] = {"error", "warn", "info", "debug"};
  int index = (int)next.log_level;
  if ((ret = dart_flag_choice("DART_LOG_LEVEL", log_levels, 4, &index, err, errlen)) != DART_OK) {
    return ret;
  }
  next.log_level = (dart_log_level_t)index;

  int on = next.shared_windows;
  if ((ret = dart_flag_bool("DART_SHARED_WINDOWS", &on, err, errlen)) != DART_OK) {
    return ret;
  }
  next.shared_windows = on != 0;

  uint64_t number = 0;
  if ((ret = dart_flag_integer("DART_VIRTUAL_NODE_SIZE", 0, MAX_VIRTUAL_NODE_SIZE, &number, err,
                               errlen)) != DART_OK) {
    return ret;
  }
  next.virtual_node_size = (int)number;

  uint64_t bytes = next.local_pool_size;
  if ((ret = dart_flag_bytes("DART_LOCAL_POOL_SIZE", 1, MAX_LOCAL_POOL_SIZE, &bytes, err,
                             errlen)) != DART_OK) {
    return ret;
  }
  next.local_pool_size = (size_t)bytes;

  bytes = next.transfer_chunk_size;
  if ((ret = dart_flag_bytes("DART_TRANSFER_CHUNK_SIZE", MIN_TRANSFER_CHUNK_SIZE,
                             MAX_TRANSFER_CHUNK_SIZE, &bytes, err, errlen)) != DART_OK) {
    return ret;
  }
  next.transfer_chunk_size = (size_t)bytes;

  on = next.force_window_pair;
  if ((ret = dart_flag_bool("DART_TEST_FORCE_WINDOW_PAIR", &on, err, errlen)) != DART_OK) {
    return ret;
  }
  next.force_window_pair = on != 0;

  static const char* const wait_modes[] = {"auto", "spin", "yield"}; /* dart_wait_mode_t order */
  index = (int)next.wait_mode;
  if ((ret = dart_flag_choice("DART_WAIT", wait_modes, 3, &index, err, errlen)) != DART_OK) {
    return ret;
  }
  next.wait_mode = (dart_wait_mode_t)index;

  static const char* const zero_one[] = {"0", "1"}; /* test flag: only these two */
  index = next.test_hwloc_fail;
  if ((ret = dart_flag_choice("DART_TEST_HWLOC_FAIL", zero_one, 2, &index, err, errlen)) !=
      DART_OK) {
    return ret;
  }
  next.test_hwloc_fail = index == 1;

  const char* const mapping_modes[] = {dart_unit_mapping_name(DART_UNIT_MAPPING_NONE),
                                       dart_unit_mapping_name(DART_UNIT_MAPPING_HIERARCHICAL),
                                       dart_unit_mapping_name(DART_UNIT_MAPPING_HILBERT)};
  index = (int)next.unit_mapping;
  if ((ret = dart_flag_choice("DART_UNIT_MAPPING", mapping_modes, 3, &index, err, errlen)) !=
      DART_OK) {
    return ret;
  }
  next.unit_mapping = (dart_unit_mapping_t)index;

  number = (uint64_t)next.unit_mapping_dims;
  if ((ret = dart_flag_integer("DART_UNIT_MAPPING_DIMS", 1, DART_MAPPING_MAX_DIMS, &number, err,
                               errlen)) != DART_OK) {
    return ret;
  }
  next.unit_mapping_dims = (int)number;

  static const char* const fallbacks[] = {"error", "identity"};
  index = next.unit_mapping_fallback;
  if ((ret = dart_flag_choice("DART_UNIT_MAPPING_FALLBACK", fallbacks, 2, &index, err, errlen)) !=
      DART_OK) {
    return ret;
  }
  next.unit_mapping_fallback = index == 1;

  const char* path = NULL;
  if ((ret = dart_flag_text("DART_TOPOLOGY_FILE", sizeof next.topology_file - 1, &path, err,
                            errlen)) != DART_OK) {
    return ret;
  }
  if (path != NULL) strcpy(next.topology_file, path);

  /* DART_WATCHDOG=<seconds> (0 = off) and DART_WATCHDOG_ACTION (see dart_watchdog.c). */
  number = 0;
  if ((ret = dart_flag_integer("DART_WATCHDOG", 0, MAX_WATCHDOG_SECONDS, &number, err, errlen)) !=
      DART_OK) {
    return ret;
  }
  next.watchdog_seconds = (int)number;

  static const char* const watchdog_actions[] = {"report", "abort"};
  index = next.watchdog_action == DART_WATCHDOG_ABORT ? 1 : 0;
  if ((ret = dart_flag_choice("DART_WATCHDOG_ACTION", watchdog_actions, 2, &index, err, errlen)) !=
      DART_OK) {
    return ret;
  }
  next.watchdog_action = index == 1 ? DART_WATCHDOG_ABORT : DART_WATCHDOG_REPORT;

  *cfg = next;
  return DART_OK;
}

dart_ret_t dart__config_read(dart_config_t* cfg) {
  char err[DART_FLAG_ERROR_SIZE];
  dart_ret_t ret = config_parse(cfg, err, sizeof err);
  if (ret != DART_OK) return DART_LOG_ERROR_RET(ret, "dart_init", "%s", err);
  return DART_OK;
}

dart_ret_t dart_flags_check(char* err, size_t errlen) {
  dart_config_t scratch;
  char local[DART_FLAG_ERROR_SIZE];
  if (err == NULL || errlen == 0) {
    err = local;
    errlen = sizeof local;
  }
  err[0] = '\0';
  return config_parse(&scratch, err, errlen);
}

/* FNV-1a of a flag's value; unset hashes apart from every value (the empty one included). */
static uint64_t value_hash(const char* value) {
  if (value == NULL) return 0x9e3779b97f4a7c15ULL;
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char* p = (const unsigned char*)value; *p != '\0'; ++p) {
    h ^= *p;
    h *= 0x100000001b3ULL;
  }
  return h ^ 1;
}

/* Up to this many flags per agreement (one allreduce of twice as many 64-bit words). */
#define MAX_AGREED_FLAGS 32

dart_ret_t dart__flags_agree(MPI_Comm comm, const char* const* names, size_t n, char* err,
                             size_t errlen) {
  char local[DART_FLAG_ERROR_SIZE];
  if (err == NULL || errlen == 0) {
    err = local;
    errlen = sizeof local;
  }
  err[0] = '\0';
  if (names == NULL || n > MAX_AGREED_FLAGS) {
    snprintf(err, errlen, "dart_flags_agree: %s",
             names == NULL ? "names is NULL" : "too many flags");
    return DART_ERR_INVAL;
  }
  /* Per flag the largest hash and the largest complement: equal everywhere iff max == ~max(~h). */
  uint64_t words[2 * MAX_AGREED_FLAGS];
  for (size_t i = 0; i < n; ++i) {
    words[2 * i] = value_hash(getenv(names[i]));
    words[2 * i + 1] = ~words[2 * i];
  }
  const int ret = MPI_Allreduce(MPI_IN_PLACE, words, (int)(2 * n), MPI_UINT64_T, MPI_MAX, comm);
  if (ret != MPI_SUCCESS) {
    snprintf(err, errlen, "dart_flags_agree: MPI_Allreduce failed (%d)", ret);
    return DART_ERR_OTHER;
  }
  for (size_t i = 0; i < n; ++i) {
    if (words[2 * i] == ~words[2 * i + 1]) continue;
    const char* mine = getenv(names[i]);
    if (mine == NULL)
      snprintf(err, errlen,
               "environment flag %s differs between units (unset on this unit); set it alike on "
               "every unit",
               names[i]);
    else
      snprintf(err, errlen,
               "environment flag %s differs between units (this unit: '%.200s'); set it alike "
               "on every unit",
               names[i], mine);
    return DART_ERR_INVAL;
  }
  return DART_OK;
}

dart_ret_t dart_flags_agree(const char* const* names, size_t n, char* err, size_t errlen) {
  DART_CHECK_INIT("dart_flags_agree");
  return dart__flags_agree(dart__state.comm_all, names, n, err, errlen);
}
