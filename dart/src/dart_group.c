/* Groups: sorted sets of global unit ids. Purely local objects.
 *
 * A handle is a pointer, and copies of it outlive dart_group_destroy. So that
 * a copy of a destroyed group is rejected (DART_ERR_INVAL) instead of read
 * after free, a destroyed group keeps its (emptied) record, marked dead, in a
 * quarantine of the last GROUP_QUARANTINE destroyed groups; only records that
 * leave the quarantine go back to malloc, whose addresses may then be handed
 * out again. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dart_internal.h"

#define GROUP_LIVE 0x6c697665u /* "live" */
#define GROUP_DEAD 0x64656164u /* "dead" */
#define GROUP_QUARANTINE 4096

struct dart_group_struct {
  uint32_t magic;       /* GROUP_LIVE, or GROUP_DEAD after destroy */
  dart_unit_t* members; /* ascending */
  size_t count;
  size_t capacity;
};

static pthread_mutex_t quarantine_lock = PTHREAD_MUTEX_INITIALIZER;
static dart_group_t quarantine[GROUP_QUARANTINE];
static size_t quarantine_next;

/* False (with a log line) for NULL or a destroyed group. Local, O(1). */
static bool group_ok(const char* call, const dart_group_t group) {
  if (group == NULL) {
    dart__log(DART_LOG_ERROR, call, "group is NULL");
    return false;
  }
  if (group->magic != GROUP_LIVE) {
    dart__log(DART_LOG_ERROR, call, "group %p was destroyed (a copy of a destroyed handle)",
              (const void*)group);
    return false;
  }
  return true;
}

#define CHECK_GROUP(call, group)                       \
  do {                                                 \
    if (!group_ok(call, group)) return DART_ERR_INVAL; \
  } while (0)

static dart_group_t group_new(size_t capacity) {
  dart_group_t group = calloc(1, sizeof *group);
  if (group == NULL) return NULL;
  group->magic = GROUP_LIVE;
  if (capacity > 0) {
    group->members = malloc(capacity * sizeof *group->members);
    if (group->members == NULL) {
      free(group);
      return NULL;
    }
  }
  group->capacity = capacity;
  return group;
}

static bool valid_unit(dart_unit_t unit) {
  return !dart__state.initialized || (unit >= 0 && unit < dart__state.size);
}

/* Index of the first member >= unit. */
static size_t lower_bound(const dart_group_t group, dart_unit_t unit) {
  size_t lo = 0, hi = group->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (group->members[mid] < unit)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

dart_ret_t dart_group_create(dart_group_t* group) {
  DART_CHECK_ARG("dart_group_create", group != NULL, "group is NULL");
  *group = group_new(0);
  if (*group == NULL)
    return DART_LOG_ERROR_RET(DART_ERR_NOMEM, "dart_group_create", "out of memory");
  return DART_OK;
}

dart_ret_t dart_group_destroy(dart_group_t* group) {
  DART_CHECK_ARG("dart_group_destroy", group != NULL, "group is NULL");
  CHECK_GROUP("dart_group_destroy", *group);
  dart_group_t dead = *group;
  free(dead->members);
  dead->members = NULL;
  dead->count = dead->capacity = 0;
  dead->magic = GROUP_DEAD;
  pthread_mutex_lock(&quarantine_lock);
  dart_group_t evicted = quarantine[quarantine_next];
  quarantine[quarantine_next] = dead;
  quarantine_next = (quarantine_next + 1) % GROUP_QUARANTINE;
  pthread_mutex_unlock(&quarantine_lock);
  free(evicted);
  *group = NULL;
  return DART_OK;
}

dart_ret_t dart_group_clone(const dart_group_t group, dart_group_t* gout) {
  DART_CHECK_ARG("dart_group_clone", gout != NULL, "gout is NULL");
  CHECK_GROUP("dart_group_clone", group);
  dart_group_t copy = group_new(group->count);
  if (copy == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, "dart_group_clone", "out of memory");
  if (group->count > 0) memcpy(copy->members, group->members, group->count * sizeof *copy->members);
  copy->count = group->count;
  *gout = copy;
  return DART_OK;
}

/* Merges two sorted member lists; keep_only_common selects intersection. */
static dart_ret_t merge(const char* call, const dart_group_t g1, const dart_group_t g2,
                        bool keep_only_common, dart_group_t* gout) {
  DART_CHECK_ARG(call, gout != NULL, "gout is NULL");
  CHECK_GROUP(call, g1);
  CHECK_GROUP(call, g2);
  dart_group_t result = group_new(g1->count + g2->count);
  if (result == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
  size_t i = 0, j = 0;
  while (i < g1->count || j < g2->count) {
    dart_unit_t a = i < g1->count ? g1->members[i] : INT32_MAX;
    dart_unit_t b = j < g2->count ? g2->members[j] : INT32_MAX;
    bool common = a == b;
    dart_unit_t next = a < b ? a : b;
    if (a <= b) ++i;
    if (b <= a) ++j;
    if (common || !keep_only_common) result->members[result->count++] = next;
  }
  *gout = result;
  return DART_OK;
}

dart_ret_t dart_group_union(const dart_group_t g1, const dart_group_t g2, dart_group_t* gout) {
  return merge("dart_group_union", g1, g2, false, gout);
}

dart_ret_t dart_group_intersect(const dart_group_t g1, const dart_group_t g2, dart_group_t* gout) {
  return merge("dart_group_intersect", g1, g2, true, gout);
}

dart_ret_t dart_group_addmember(dart_group_t group, dart_global_unit_t unitid) {
  static const char* call = "dart_group_addmember";
  CHECK_GROUP(call, group);
  DART_CHECK_ARG(call, valid_unit(unitid.id), "unit %d is not a unit of DART_TEAM_ALL", unitid.id);
  size_t at = lower_bound(group, unitid.id);
  if (at < group->count && group->members[at] == unitid.id) return DART_OK;
  if (group->count == group->capacity) {
    size_t capacity = group->capacity == 0 ? 8 : 2 * group->capacity;
    dart_unit_t* grown = realloc(group->members, capacity * sizeof *grown);
    if (grown == NULL) return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
    group->members = grown;
    group->capacity = capacity;
  }
  memmove(&group->members[at + 1], &group->members[at],
          (group->count - at) * sizeof *group->members);
  group->members[at] = unitid.id;
  ++group->count;
  return DART_OK;
}

dart_ret_t dart_group_delmember(dart_group_t group, dart_global_unit_t unitid) {
  static const char* call = "dart_group_delmember";
  CHECK_GROUP(call, group);
  size_t at = lower_bound(group, unitid.id);
  if (at == group->count || group->members[at] != unitid.id) {
    return DART_LOG_ERROR_RET(DART_ERR_NOTFOUND, call, "unit %d is not a member", unitid.id);
  }
  memmove(&group->members[at], &group->members[at + 1],
          (group->count - at - 1) * sizeof *group->members);
  --group->count;
  return DART_OK;
}

dart_ret_t dart_group_ismember(const dart_group_t group, dart_global_unit_t unitid,
                               int32_t* ismember) {
  DART_CHECK_ARG("dart_group_ismember", ismember != NULL, "ismember is NULL");
  CHECK_GROUP("dart_group_ismember", group);
  size_t at = lower_bound(group, unitid.id);
  *ismember = at < group->count && group->members[at] == unitid.id;
  return DART_OK;
}

dart_ret_t dart_group_size(const dart_group_t group, size_t* size) {
  DART_CHECK_ARG("dart_group_size", size != NULL, "size is NULL");
  CHECK_GROUP("dart_group_size", group);
  *size = group->count;
  return DART_OK;
}

dart_ret_t dart_group_getmembers(const dart_group_t group, dart_global_unit_t* unitids) {
  CHECK_GROUP("dart_group_getmembers", group);
  DART_CHECK_ARG("dart_group_getmembers", unitids != NULL || group->count == 0, "unitids is NULL");
  for (size_t i = 0; i < group->count; ++i) unitids[i].id = group->members[i];
  return DART_OK;
}

dart_ret_t dart_group_split(const dart_group_t group, size_t n, size_t* nout, dart_group_t* gout) {
  static const char* call = "dart_group_split";
  DART_CHECK_ARG(call, nout != NULL && gout != NULL, "an argument is NULL");
  CHECK_GROUP(call, group);
  DART_CHECK_ARG(call, n > 0, "cannot split into 0 groups");
  size_t parts = n < group->count ? n : group->count;
  size_t base = parts == 0 ? 0 : group->count / parts;
  size_t extra = parts == 0 ? 0 : group->count % parts;
  size_t next = 0;
  for (size_t i = 0; i < n; ++i) gout[i] = NULL;
  for (size_t i = 0; i < parts; ++i) {
    size_t count = base + (i < extra ? 1 : 0);
    gout[i] = group_new(count);
    if (gout[i] == NULL) {
      for (size_t j = 0; j < i; ++j) dart_group_destroy(&gout[j]);
      return DART_LOG_ERROR_RET(DART_ERR_NOMEM, call, "out of memory");
    }
    memcpy(gout[i]->members, &group->members[next], count * sizeof *group->members);
    gout[i]->count = count;
    next += count;
  }
  *nout = parts;
  return DART_OK;
}

bool dart__group_valid(const char* call, const dart_group_t group) { return group_ok(call, group); }

/* Members of a group, for dart_team_create. */
const dart_unit_t* dart__group_members(const dart_group_t group, size_t* count) {
  *count = group->count;
  return group->members;
}

/* Builds a group from a team's member list. */
dart_ret_t dart__group_from_units(const int* units, size_t count, dart_group_t* gout) {
  dart_group_t group = group_new(count);
  if (group == NULL && count > 0) return DART_ERR_NOMEM;
  if (group == NULL) group = group_new(0);
  if (group == NULL) return DART_ERR_NOMEM;
  for (size_t i = 0; i < count; ++i) {
    dart_group_addmember(group, DART_GLOBAL_UNIT_ID(units[i]));
  }
  *gout = group;
  return DART_OK;
}
