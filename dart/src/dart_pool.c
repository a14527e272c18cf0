/* The local allocation pool behind dart_memalloc: a first-fit allocator over
 * the byte range [0, capacity) of the calling unit's part of segment 0.
 * Bookkeeping lives in ordinary heap memory, never in the shared window, so
 * other units cannot corrupt it. Free ranges are kept sorted by offset and
 * merged with their neighbours on free. O(number of ranges) per call. */
#include <stdlib.h>
#include <string.h>

#include "dart_internal.h"


typedef struct {
  uint64_t offset;
  uint64_t size;
} pool_range_t;

typedef struct {
  pool_range_t* items;
  size_t count;
  size_t capacity;
} range_list_t;

struct dart_pool {
  uint64_t capacity;
  uint64_t alignment; /* every block starts and ends at a multiple */
  uint64_t used;
  range_list_t free_ranges; /* sorted by offset, never adjacent */
  range_list_t blocks;      /* allocated blocks, sorted by offset */
};

static bool list_insert(range_list_t* list, size_t index, pool_range_t range) {
  if (list->count == list->capacity) {
    size_t capacity = list->capacity == 0 ? 16 : 2 * list->capacity;
    pool_range_t* grown = realloc(list->items, capacity * sizeof *grown);
    if (grown == NULL) return false;
    list->items = grown;
    list->capacity = capacity;
  }
  memmove(&list->items[index + 1], &list->items[index],
          (list->count - index) * sizeof *list->items);
  list->items[index] = range;
  ++list->count;
  return true;
}

static void list_erase(range_list_t* list, size_t index) {
  memmove(&list->items[index], &list->items[index + 1],
          (list->count - index - 1) * sizeof *list->items);
  --list->count;
}

/* First index whose offset is >= offset (binary search). */
static size_t list_lower_bound(const range_list_t* list, uint64_t offset) {
  size_t lo = 0, hi = list->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (list->items[mid].offset < offset)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

dart_pool_t* dart__pool_create(size_t capacity, size_t alignment) {
  dart_pool_t* pool = calloc(1, sizeof *pool);
  if (pool == NULL) return NULL;
  pool->capacity = capacity;
  pool->alignment = alignment > 0 ? alignment : 1;
  if (capacity > 0 && !list_insert(&pool->free_ranges, 0, (pool_range_t){0, capacity})) {
    free(pool);
    return NULL;
  }
  return pool;
}

void dart__pool_destroy(dart_pool_t* pool) {
  if (pool == NULL) return;
  free(pool->free_ranges.items);
  free(pool->blocks.items);
  free(pool);
}

bool dart__pool_alloc(dart_pool_t* pool, size_t nbytes, uint64_t* offset) {
  if (nbytes == 0 || nbytes > pool->capacity) return false;
  uint64_t size = (nbytes + pool->alignment - 1) / pool->alignment * pool->alignment;
  for (size_t i = 0; i < pool->free_ranges.count; ++i) {
    pool_range_t* range = &pool->free_ranges.items[i];
    if (range->size < size) continue;
    uint64_t start = range->offset;
    size_t block_index = list_lower_bound(&pool->blocks, start);
    if (!list_insert(&pool->blocks, block_index, (pool_range_t){start, size})) return false;
    range->offset += size;
    range->size -= size;
    if (range->size == 0) list_erase(&pool->free_ranges, i);
    pool->used += size;
    *offset = start;
    return true;
  }
  return false;
}

bool dart__pool_free(dart_pool_t* pool, uint64_t offset) {
  size_t index = list_lower_bound(&pool->blocks, offset);
  if (index == pool->blocks.count || pool->blocks.items[index].offset != offset) return false;
  pool_range_t block = pool->blocks.items[index];
  size_t at = list_lower_bound(&pool->free_ranges, block.offset);
  /* Reserve room first so that a failed insert loses nothing. */
  if (!list_insert(&pool->free_ranges, at, block)) return false;
  list_erase(&pool->blocks, index);
  pool->used -= block.size;
  range_list_t* ranges = &pool->free_ranges;
  if (at + 1 < ranges->count &&
      ranges->items[at].offset + ranges->items[at].size == ranges->items[at + 1].offset) {
    ranges->items[at].size += ranges->items[at + 1].size;
    list_erase(ranges, at + 1);
  }
  if (at > 0 &&
      ranges->items[at - 1].offset + ranges->items[at - 1].size == ranges->items[at].offset) {
    ranges->items[at - 1].size += ranges->items[at].size;
    list_erase(ranges, at);
  }
  return true;
}

size_t dart__pool_used(const dart_pool_t* pool) { return (size_t)pool->used; }

bool dart__pool_contains(const dart_pool_t* pool, uint64_t offset, uint64_t nbytes) {
  /* The last block starting at or before offset. */
  size_t index = list_lower_bound(&pool->blocks, offset + 1);
  if (index == 0) return false;
  const pool_range_t* block = &pool->blocks.items[index - 1];
  return offset - block->offset <= block->size && nbytes <= block->size - (offset - block->offset);
}
