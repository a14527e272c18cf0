/* Environment flags, read once by dart_init. Every flag is documented in
 * README.md; a malformed value is an error naming the flag. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dart_internal.h"
#include "dart_mapping.h"

bool dart__parse_bytes(const char* text, size_t* bytes) {
  if (text == NULL || *text == '\0') return false;
  errno = 0;
  char* end = NULL;
  unsigned long long value = strtoull(text, &end, 10);
  if (errno != 0 || end == text || text[0] == '-') return false;
  unsigned long long scale = 1;
  if (*end != '\0') {
    switch (*end) {
      case 'k':
      case 'K':
        scale = 1ull << 10;
        break;
      case 'm':
      case 'M':
        scale = 1ull << 20;
        break;
      case 'g':
      case 'G':
        scale = 1ull << 30;
        break;
      default:
        return false;
    }
    ++end;
    if (*end == 'i' || *end == 'I') ++end;
    if (*end == 'b' || *end == 'B') ++end;
    if (*end != '\0') return false;
  }
  if (value == 0 || value > SIZE_MAX / scale) return false;
  *bytes = (size_t)(value * scale);
  return true;
}

/* Parses a decimal int in [min, max]. */
static bool parse_int(const char* text, long min, long max, long* out) {
  if (text == NULL || *text == '\0') return false;
  errno = 0;
  char* end = NULL;
  long value = strtol(text, &end, 10);
  if (errno != 0 || *end != '\0' || value < min || value > max) return false;
  *out = value;
  return true;
}

static bool parse_bool(const char* text, bool* out) {
  if (strcmp(text, "1") == 0 || strcasecmp(text, "on") == 0 || strcasecmp(text, "true") == 0 ||
      strcasecmp(text, "yes") == 0) {
    *out = true;
    return true;
  }
  if (strcmp(text, "0") == 0 || strcasecmp(text, "off") == 0 || strcasecmp(text, "false") == 0 ||
      strcasecmp(text, "no") == 0) {
    *out = false;
    return true;
  }
  return false;
}

static bool parse_log_level(const char* text, dart_log_level_t* out) {
  static const char* const names[] = {"error", "warn", "info", "debug"};
  for (int i = 0; i < 4; ++i) {
    if (strcasecmp(text, names[i]) == 0) {
      *out = (dart_log_level_t)i;
      return true;
    }
  }
  return false;
}

#define FLAG_ERROR(name, value, expected)                                                       \
  DART_LOG_ERROR_RET(DART_ERR_INVAL, "dart_init",                                               \
                     "environment flag %s has malformed value '%s' (expected %s)", name, value, \
                     expected)

/* DART_WATCHDOG=<seconds> (0 = off, at most a week) and
 * DART_WATCHDOG_ACTION=report|abort (see dart_watchdog.c). */
static dart_ret_t read_watchdog_flags(dart_config_t* next) {
  const char* value;
  if ((value = getenv("DART_WATCHDOG")) != NULL) {
    long seconds = 0;
    if (!parse_int(value, 0, 7 * 24 * 3600, &seconds)) {
      return FLAG_ERROR("DART_WATCHDOG", value, "whole seconds in [0, 604800], 0 = off");
    }
    next->watchdog_seconds = (int)seconds;
  }
  if ((value = getenv("DART_WATCHDOG_ACTION")) != NULL) {
    if (strcmp(value, "report") == 0) {
      next->watchdog_action = DART_WATCHDOG_REPORT;
    } else if (strcmp(value, "abort") == 0) {
      next->watchdog_action = DART_WATCHDOG_ABORT;
    } else {
      return FLAG_ERROR("DART_WATCHDOG_ACTION", value, "report|abort");
    }
  }
  return DART_OK;
}

dart_ret_t dart__config_read(dart_config_t* cfg) {
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
  const char* value;
  if ((value = getenv("DART_LOG_LEVEL")) != NULL && !parse_log_level(value, &next.log_level)) {
    return FLAG_ERROR("DART_LOG_LEVEL", value, "error|warn|info|debug");
  }
  if ((value = getenv("DART_SHARED_WINDOWS")) != NULL && !parse_bool(value, &next.shared_windows)) {
    return FLAG_ERROR("DART_SHARED_WINDOWS", value, "1 or 0");
  }
  if ((value = getenv("DART_VIRTUAL_NODE_SIZE")) != NULL) {
    long k = 0;
    if (!parse_int(value, 0, INT32_MAX, &k)) {
      return FLAG_ERROR("DART_VIRTUAL_NODE_SIZE", value, "a unit count >= 1, or 0 for real nodes");
    }
    next.virtual_node_size = (int)k;
  }
  if ((value = getenv("DART_LOCAL_POOL_SIZE")) != NULL &&
      !dart__parse_bytes(value, &next.local_pool_size)) {
    return FLAG_ERROR("DART_LOCAL_POOL_SIZE", value, "a byte size > 0 such as 64M");
  }
  if ((value = getenv("DART_TRANSFER_CHUNK_SIZE")) != NULL) {
    size_t chunk = 0;
    if (!dart__parse_bytes(value, &chunk) || chunk < 64 || chunk > ((size_t)1 << 30)) {
      return FLAG_ERROR("DART_TRANSFER_CHUNK_SIZE", value, "a byte size in [64, 1G] such as 16M");
    }
    next.transfer_chunk_size = chunk;
  }
  if ((value = getenv("DART_TEST_FORCE_WINDOW_PAIR")) != NULL &&
      !parse_bool(value, &next.force_window_pair)) {
    return FLAG_ERROR("DART_TEST_FORCE_WINDOW_PAIR", value, "1 or 0");
  }
  if ((value = getenv("DART_WAIT")) != NULL) {
    if (strcasecmp(value, "auto") == 0) {
      next.wait_mode = DART_WAIT_AUTO;
    } else if (strcasecmp(value, "spin") == 0) {
      next.wait_mode = DART_WAIT_SPIN;
    } else if (strcasecmp(value, "yield") == 0) {
      next.wait_mode = DART_WAIT_YIELD;
    } else {
      return FLAG_ERROR("DART_WAIT", value, "auto|spin|yield");
    }
  }
  if ((value = getenv("DART_TEST_HWLOC_FAIL")) != NULL) {
    if (strcmp(value, "1") != 0 && strcmp(value, "0") != 0) {
      return FLAG_ERROR("DART_TEST_HWLOC_FAIL", value, "1 or 0");
    }
    next.test_hwloc_fail = value[0] == '1';
  }
  if ((value = getenv("DART_UNIT_MAPPING")) != NULL) {
    dart_unit_mapping_t mode;
    if (!dart__mapping_mode_parse(value, &mode)) {
      return FLAG_ERROR("DART_UNIT_MAPPING", value, "none|hierarchical|hilbert");
    }
    next.unit_mapping = mode;
  }
  if ((value = getenv("DART_UNIT_MAPPING_DIMS")) != NULL) {
    long ndims = 0;
    if (!parse_int(value, 1, DART_MAPPING_MAX_DIMS, &ndims)) {
      return FLAG_ERROR("DART_UNIT_MAPPING_DIMS", value, "1, 2, 3 or 4");
    }
    next.unit_mapping_dims = (int)ndims;
  }
  if ((value = getenv("DART_UNIT_MAPPING_FALLBACK")) != NULL) {
    if (strcasecmp(value, "identity") == 0) {
      next.unit_mapping_fallback = true;
    } else if (strcasecmp(value, "error") != 0) {
      return FLAG_ERROR("DART_UNIT_MAPPING_FALLBACK", value, "error|identity");
    }
  }
  if ((value = getenv("DART_TOPOLOGY_FILE")) != NULL) {
    if (strlen(value) >= sizeof next.topology_file) {
      return FLAG_ERROR("DART_TOPOLOGY_FILE", value, "a path shorter than 4096 bytes");
    }
    strcpy(next.topology_file, value);
  }
  dart_ret_t watchdog = read_watchdog_flags(&next);
  if (watchdog != DART_OK) return watchdog;
  *cfg = next;
  return DART_OK;
}
