/* Machine-topology description file (DART_TOPOLOGY_FILE): parser and default cost ladder.
 * Pure functions, no MPI; the result feeds dart__mapping_compute (dart_mapping.h).
 *
 * File format, one statement per line; `#` starts a comment, blank lines are ignored, words
 * are separated by blanks:
 *
 *   node c11-2c0s15n3            a node as a Cray placement string (notation a)
 *   levels group chassis blade   names of the levels above the node, top first (notation b)
 *   node 3 1 15                  a node by its coordinate at every named level (notation b)
 *   cost blade 1.3 9.0           latency [us] and bandwidth [GB/s] between two units whose
 *                                closest common level is `blade` (see below)
 *
 * - One `node` line per node, in node order: node i of the run is the i-th `node` line.
 * - Notation (a), Cray placement strings c<col>-<row>c<chassis>s<slot>n<node> (letters in any
 *   case, numbers of at most 9 digits): the levels are group, chassis, blade; the cabinet
 * c<col>-<row> is taken as the group (on an XC40 an electrical group is two cabinets: write a table
 * to model that), the chassis c<N> and the blade s<N> are numbered within it, n<N> is the node on
 * the blade. The same placement string twice is an error.
 * - Notation (b), a table: exactly one `levels` line (1 to 8 names of letters, digits, `_`,
 *   `-`, starting with a letter or `_`, at most 31 characters, not `node` or `system`), before
 *   the first `node` line; then every `node` line gives one non-negative integer per level.
 * - The two notations are not mixed in one file.
 * - `cost <level> <latency_us> <bandwidth_GBps>` (optional, anywhere, once per level): <level>
 *   is `node` (two units on the same node), a level name (two units on different nodes of the
 *   same <level>, i.e. their closest common level), or `system` (different top-level groups).
 *   Latency >= 0, bandwidth > 0, decimal numbers.
 * - Default costs, chosen to resemble Hazel Hen (Cray XC40, Aries dragonfly) in order of
 *   magnitude and overridable by `cost` lines, by depth from the node up:
 *       node 0.5 us 10 GB/s; 1st level above (blade) 1.3 us 9 GB/s; 2nd (chassis) 1.5 us 8 GB/s;
 *       3rd and every higher level (group) 1.8 us 6 GB/s; system 2.5 us 3 GB/s.
 *
 * Limits: a regular file (a FIFO, device or directory is refused unread) of at most 16 MiB,
 * lines of at most 4096 bytes.
 *
 * Every error is "<file>:<line>: <what is wrong>" (unreadable or refused file: "<file>: cannot
 * read: <reason>"; oversized: "<file>: <n> bytes, more than ..."; no node lines: the last line
 * of the file). */
#define _POSIX_C_SOURCE 200809L /* open flags, fstat, read */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dart_internal.h"
#include "dart_mapping.h"

/* Default ladder by depth above the node; the last row repeats for deeper levels. */
static const dart_link_cost_t default_node = {0.5, 10.0};
static const dart_link_cost_t default_levels[] = {{1.3, 9.0}, {1.5, 8.0}, {1.8, 6.0}};
static const dart_link_cost_t default_system = {2.5, 3.0};

dart_ret_t dart__topology_default_costs(int nlevels, dart_link_cost_t* cost) {
  if (nlevels < 0 || nlevels > DART_TOPOLOGY_MAX_LEVELS || cost == NULL) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, "dart__topology_default_costs",
                              "need 0 <= nlevels <= %d (got %d) and a cost array",
                              DART_TOPOLOGY_MAX_LEVELS, nlevels);
  }
  const int ndefault = (int)(sizeof default_levels / sizeof default_levels[0]);
  cost[0] = default_node;
  for (int j = 1; j <= nlevels; ++j) cost[j] = default_levels[j <= ndefault ? j - 1 : ndefault - 1];
  cost[nlevels + 1] = default_system;
  return DART_OK;
}

void dart__topology_free(dart_topology_t* topo) {
  if (topo == NULL) return;
  free(topo->coords);
  memset(topo, 0, sizeof *topo);
}

/* ---- parser state ------------------------------------------------------------------------ */

enum { NOTATION_NONE, NOTATION_CRAY, NOTATION_TABLE };

/* A `cost` line, resolved to its ladder index at the end (level names may come later). */
typedef struct {
  char level[DART_TOPOLOGY_MAX_NAME + 1];
  dart_link_cost_t cost;
  int line;
} cost_line_t;

/* A Cray node for the duplicate check. */
typedef struct {
  int64_t key[4]; /* group, chassis, blade, node on the blade */
  int line;
} cray_node_t;

typedef struct {
  const char* name;
  char* err;
  size_t errlen;
  int notation;
  int notation_line; /* line that fixed the notation */
  dart_topology_t* topo;
  int capacity; /* nodes coords has room for */
  cray_node_t* cray_nodes;
  cost_line_t* costs;
  int ncosts;
} parser_t;

/* Writes "<name>:<line>: <message>" to the error buffer; returns DART_ERR_INVAL. */
static dart_ret_t __attribute__((format(printf, 3, 4)))
fail(parser_t* p, int line, const char* fmt, ...) {
  if (p->err != NULL && p->errlen > 0) {
    int n = snprintf(p->err, p->errlen, "%s:%d: ", p->name, line);
    if (n >= 0 && (size_t)n < p->errlen) {
      va_list args;
      va_start(args, fmt);
      vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, args);
      va_end(args);
    }
  }
  return DART_ERR_INVAL;
}

static dart_ret_t out_of_memory(parser_t* p, int line) {
  fail(p, line, "out of memory");
  return DART_ERR_NOMEM;
}

/* Parses a run of decimal digits (at most 9) at *s, advancing *s. */
static bool parse_digits(const char** s, int64_t* value) {
  const char* c = *s;
  int64_t v = 0;
  int n = 0;
  while (isdigit((unsigned char)*c)) {
    if (++n > 9) return false;
    v = v * 10 + (*c++ - '0');
  }
  if (n == 0) return false;
  *s = c;
  *value = v;
  return true;
}

static bool expect_letter(const char** s, char letter) {
  if (tolower((unsigned char)**s) != letter) return false;
  ++*s;
  return true;
}

/* c<col>-<row>c<chassis>s<slot>n<node> -> col, row, chassis, slot, node. */
static bool parse_cray(const char* s, int64_t v[5]) {
  return expect_letter(&s, 'c') && parse_digits(&s, &v[0]) && *s++ == '-' &&
         parse_digits(&s, &v[1]) && expect_letter(&s, 'c') && parse_digits(&s, &v[2]) &&
         expect_letter(&s, 's') && parse_digits(&s, &v[3]) && expect_letter(&s, 'n') &&
         parse_digits(&s, &v[4]) && *s == '\0';
}

static bool valid_level_name(const char* s) {
  size_t len = strlen(s);
  if (len == 0 || len > DART_TOPOLOGY_MAX_NAME) return false;
  if (!isalpha((unsigned char)s[0]) && s[0] != '_') return false;
  for (size_t i = 1; i < len; ++i) {
    if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-') return false;
  }
  return true;
}

/* Parses a finite decimal number; false if the word is not entirely one. */
static bool parse_number(const char* s, double* value) {
  if (*s == '\0') return false;
  errno = 0;
  char* end = NULL;
  double v = strtod(s, &end);
  if (errno != 0 || *end != '\0' || !isfinite(v)) return false;
  *value = v;
  return true;
}

/* Appends a node's coordinates (nlevels values); grows the array geometrically. */
static dart_ret_t add_node(parser_t* p, int line, const int64_t* coords) {
  dart_topology_t* t = p->topo;
  if (t->nnodes == p->capacity) {
    if (p->capacity > INT32_MAX / 2) return fail(p, line, "too many node lines");
    int capacity = p->capacity == 0 ? 64 : 2 * p->capacity;
    int64_t* grown = realloc(t->coords, sizeof(int64_t) * (size_t)capacity * (size_t)t->nlevels);
    if (grown == NULL) return out_of_memory(p, line);
    t->coords = grown;
    if (p->notation == NOTATION_CRAY) {
      cray_node_t* cray = realloc(p->cray_nodes, sizeof(cray_node_t) * (size_t)capacity);
      if (cray == NULL) return out_of_memory(p, line);
      p->cray_nodes = cray;
    }
    p->capacity = capacity;
  }
  memcpy(t->coords + (size_t)t->nnodes * (size_t)t->nlevels, coords,
         sizeof(int64_t) * (size_t)t->nlevels);
  t->nnodes++;
  return DART_OK;
}

#define MAX_WORDS (DART_TOPOLOGY_MAX_LEVELS + 2)

static dart_ret_t parse_levels(parser_t* p, int line, char** words, int nwords) {
  dart_topology_t* t = p->topo;
  if (p->notation == NOTATION_CRAY) {
    return fail(p, line, "mixed notations: `levels` line, but line %d gave a Cray placement string",
                p->notation_line);
  }
  if (p->notation == NOTATION_TABLE) {
    return fail(p, line, "second `levels` line (the first is line %d)", p->notation_line);
  }
  int nlevels = nwords - 1;
  if (nlevels < 1) return fail(p, line, "`levels` names no level");
  if (nlevels > DART_TOPOLOGY_MAX_LEVELS) {
    return fail(p, line, "`levels` names %d levels, at most %d are allowed", nlevels,
                DART_TOPOLOGY_MAX_LEVELS);
  }
  for (int l = 0; l < nlevels; ++l) {
    const char* name = words[l + 1];
    if (!valid_level_name(name)) {
      return fail(p, line,
                  "bad level name '%s' (letters, digits, '_' or '-', starting with a letter or "
                  "'_', at most %d characters)",
                  name, DART_TOPOLOGY_MAX_NAME);
    }
    if (strcmp(name, "node") == 0 || strcmp(name, "system") == 0) {
      return fail(p, line, "level name '%s' is reserved (node and system are implicit)", name);
    }
    for (int k = 0; k < l; ++k) {
      if (strcmp(t->level_names[k], name) == 0) {
        return fail(p, line, "level '%s' named twice", name);
      }
    }
    strcpy(t->level_names[l], name);
  }
  t->nlevels = nlevels;
  p->notation = NOTATION_TABLE;
  p->notation_line = line;
  return DART_OK;
}

/* "expected 3 coordinates (group chassis blade), got 2". */
static dart_ret_t wrong_coordinate_count(parser_t* p, int line, int got) {
  const dart_topology_t* t = p->topo;
  char names[(DART_TOPOLOGY_MAX_NAME + 1) * DART_TOPOLOGY_MAX_LEVELS] = "";
  for (int l = 0; l < t->nlevels; ++l) {
    if (l > 0) strcat(names, " ");
    strcat(names, t->level_names[l]);
  }
  return fail(p, line, "expected %d coordinates (%s), got %d", t->nlevels, names, got);
}

static dart_ret_t parse_node(parser_t* p, int line, char** words, int nwords) {
  dart_topology_t* t = p->topo;
  if (nwords < 2) return fail(p, line, "`node` without a placement string or coordinates");
  if (isalpha((unsigned char)words[1][0])) {  // notation (a)
    if (p->notation == NOTATION_TABLE) {
      return fail(p, line,
                  "mixed notations: Cray placement string '%s', but line %d started a table",
                  words[1], p->notation_line);
    }
    if (nwords != 2) {
      return fail(p, line, "expected one Cray placement string after `node`, got %d words",
                  nwords - 1);
    }
    int64_t v[5];
    if (!parse_cray(words[1], v)) {
      return fail(p, line,
                  "bad Cray placement string '%s' (expected c<col>-<row>c<chassis>s<slot>n<node>, "
                  "e.g. c11-2c0s15n3)",
                  words[1]);
    }
    if (p->notation == NOTATION_NONE) {
      p->notation = NOTATION_CRAY;
      p->notation_line = line;
      t->cray = true;
      t->nlevels = 3;
      strcpy(t->level_names[0], "group");
      strcpy(t->level_names[1], "chassis");
      strcpy(t->level_names[2], "blade");
    }
    int64_t coords[3] = {(v[0] << 32) | v[1], v[2], v[3]};
    dart_ret_t ret = add_node(p, line, coords);
    if (ret != DART_OK) return ret;
    cray_node_t* c = &p->cray_nodes[t->nnodes - 1];
    c->key[0] = coords[0];
    c->key[1] = coords[1];
    c->key[2] = coords[2];
    c->key[3] = v[4];
    c->line = line;
    return DART_OK;
  }
  // notation (b)
  if (p->notation == NOTATION_CRAY) {
    return fail(p, line, "mixed notations: coordinates, but line %d gave a Cray placement string",
                p->notation_line);
  }
  if (p->notation == NOTATION_NONE) {
    return fail(p, line,
                "node coordinates before the `levels` line (a table needs `levels <name>...` "
                "first; a Cray placement string starts with 'c')");
  }
  if (nwords - 1 != t->nlevels) return wrong_coordinate_count(p, line, nwords - 1);
  int64_t coords[DART_TOPOLOGY_MAX_LEVELS];
  for (int l = 0; l < t->nlevels; ++l) {
    const char* w = words[l + 1];
    const char* digits = w[0] == '-' ? w + 1 : w;
    bool numeric = *digits != '\0';
    for (const char* c = digits; *c && numeric; ++c) numeric = isdigit((unsigned char)*c);
    if (!numeric) {
      return fail(p, line, "bad coordinate '%s' for level %s (expected an integer >= 0)", w,
                  t->level_names[l]);
    }
    if (w[0] == '-') {
      return fail(p, line, "negative coordinate '%s' for level %s", w, t->level_names[l]);
    }
    errno = 0;
    long long value = strtoll(w, NULL, 10);
    if (errno == ERANGE) {
      return fail(p, line, "coordinate '%s' for level %s is too large", w, t->level_names[l]);
    }
    coords[l] = value;
  }
  return add_node(p, line, coords);
}

static dart_ret_t parse_cost(parser_t* p, int line, char** words, int nwords) {
  if (nwords != 4) {
    return fail(p, line, "expected `cost <level> <latency_us> <bandwidth_GBps>`, got %d words",
                nwords);
  }
  const char* level = words[1];
  if (strlen(level) > DART_TOPOLOGY_MAX_NAME) return fail(p, line, "unknown level '%s'", level);
  dart_link_cost_t cost;
  if (!parse_number(words[2], &cost.latency_us) || cost.latency_us < 0) {
    return fail(p, line, "bad latency '%s' (expected microseconds >= 0)", words[2]);
  }
  if (!parse_number(words[3], &cost.bandwidth_GBps) || !(cost.bandwidth_GBps > 0)) {
    return fail(p, line, "bad bandwidth '%s' (expected GB/s > 0)", words[3]);
  }
  for (int i = 0; i < p->ncosts; ++i) {
    if (strcmp(p->costs[i].level, level) == 0) {
      return fail(p, line, "second cost line for '%s' (the first is line %d)", level,
                  p->costs[i].line);
    }
  }
  cost_line_t* grown = realloc(p->costs, sizeof(cost_line_t) * (size_t)(p->ncosts + 1));
  if (grown == NULL) return out_of_memory(p, line);
  p->costs = grown;
  cost_line_t* c = &p->costs[p->ncosts++];
  strcpy(c->level, level);
  c->cost = cost;
  c->line = line;
  return DART_OK;
}

/* Ladder index of a level name, -1 if unknown. */
static int ladder_index(const dart_topology_t* t, const char* level) {
  if (strcmp(level, "node") == 0) return 0;
  if (strcmp(level, "system") == 0) return t->nlevels + 1;
  for (int l = 0; l < t->nlevels; ++l) {
    if (strcmp(t->level_names[l], level) == 0) return t->nlevels - l;
  }
  return -1;
}

static int compare_cray(const void* a, const void* b) {
  const cray_node_t* x = a;
  const cray_node_t* y = b;
  for (int i = 0; i < 4; ++i) {
    if (x->key[i] != y->key[i]) return x->key[i] < y->key[i] ? -1 : 1;
  }
  return x->line < y->line ? -1 : x->line > y->line;
}

/* Checks the whole file once read: nodes present, cost lines resolved, no duplicate node. */
static dart_ret_t finish(parser_t* p, int last_line) {
  dart_topology_t* t = p->topo;
  if (t->nnodes == 0) {
    return fail(p, last_line,
                "no `node` lines (one per node: `node c0-0c0s0n0` or `levels ...` "
                "and `node <coordinates>`)");
  }
  dart__topology_default_costs(t->nlevels, t->cost);
  for (int i = 0; i < p->ncosts; ++i) {
    int j = ladder_index(t, p->costs[i].level);
    if (j < 0) {
      char known[(DART_TOPOLOGY_MAX_NAME + 2) * (DART_TOPOLOGY_MAX_LEVELS + 2)] = "node";
      for (int l = t->nlevels - 1; l >= 0; --l) {
        strcat(known, ", ");
        strcat(known, t->level_names[l]);
      }
      strcat(known, ", system");
      return fail(p, p->costs[i].line, "unknown level '%s' in cost line (known: %s)",
                  p->costs[i].level, known);
    }
    t->cost[j] = p->costs[i].cost;
  }
  if (p->notation == NOTATION_CRAY) {
    qsort(p->cray_nodes, (size_t)t->nnodes, sizeof(cray_node_t), compare_cray);
    for (int i = 0; i + 1 < t->nnodes; ++i) {
      const cray_node_t* a = &p->cray_nodes[i];
      const cray_node_t* b = &p->cray_nodes[i + 1];
      if (memcmp(a->key, b->key, sizeof a->key) == 0) {
        return fail(p, b->line, "node c%lld-%lldc%llds%lldn%lld listed twice (first at line %d)",
                    (long long)(a->key[0] >> 32), (long long)(a->key[0] & 0xffffffff),
                    (long long)a->key[1], (long long)a->key[2], (long long)a->key[3], a->line);
      }
    }
  }
  return DART_OK;
}

/* Splits line (modified in place) into words; returns their number (words past MAX_WORDS are
 * counted, not stored). */
static int split_words(char* line, char** words) {
  int n = 0;
  char* c = line;
  for (;;) {
    while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\v' || *c == '\f') ++c;
    if (*c == '\0') break;
    if (n < MAX_WORDS) words[n] = c;
    ++n;
    while (*c != '\0' && *c != ' ' && *c != '\t' && *c != '\r' && *c != '\v' && *c != '\f') ++c;
    if (*c == '\0') break;
    *c++ = '\0';
  }
  return n;
}

static dart_ret_t parse_all(parser_t* p, char* text) {
  int line = 0;
  char* next = text;
  while (*next != '\0') {
    char* start = next;
    char* newline = strchr(start, '\n');
    if (newline != NULL) {
      *newline = '\0';
      next = newline + 1;
    } else {
      next = start + strlen(start);
    }
    ++line;
    if (strlen(start) > DART_TOPOLOGY_MAX_LINE_BYTES) {
      return fail(p, line, "line longer than %d bytes", DART_TOPOLOGY_MAX_LINE_BYTES);
    }
    char* comment = strchr(start, '#');
    if (comment != NULL) *comment = '\0';
    char* words[MAX_WORDS];
    int nwords = split_words(start, words);
    if (nwords == 0) continue;
    if (nwords > MAX_WORDS) {
      if (strcmp(words[0], "node") == 0 && p->notation == NOTATION_TABLE) {
        return wrong_coordinate_count(p, line, nwords - 1);
      }
      return fail(p, line, "too many words (%d) for a `%s` line", nwords, words[0]);
    }
    dart_ret_t ret;
    if (strcmp(words[0], "node") == 0) {
      ret = parse_node(p, line, words, nwords);
    } else if (strcmp(words[0], "levels") == 0) {
      ret = parse_levels(p, line, words, nwords);
    } else if (strcmp(words[0], "cost") == 0) {
      ret = parse_cost(p, line, words, nwords);
    } else {
      ret = fail(p, line, "unknown keyword '%s' (expected node, levels or cost)", words[0]);
    }
    if (ret != DART_OK) return ret;
  }
  return finish(p, line > 0 ? line : 1);
}

dart_ret_t dart__topology_parse_text(const char* text, const char* name, dart_topology_t* out,
                                     char* err, size_t errlen) {
  if (err != NULL && errlen > 0) err[0] = '\0';
  parser_t p = {
      .name = name != NULL ? name : "(topology)", .err = err, .errlen = errlen, .topo = out};
  if (out == NULL) return fail(&p, 1, "no topology to fill in");
  memset(out, 0, sizeof *out);
  if (text == NULL) return fail(&p, 1, "no text");
  size_t length = strlen(text);
  char* copy = malloc(length + 1);
  if (copy == NULL) return out_of_memory(&p, 1);
  memcpy(copy, text, length + 1);
  dart_ret_t ret = parse_all(&p, copy);
  free(copy);
  free(p.cray_nodes);
  free(p.costs);
  if (ret != DART_OK) dart__topology_free(out);
  return ret;
}

/* What st is, for "not a regular file" messages. */
static const char* file_kind(const struct stat* st) {
  if (S_ISDIR(st->st_mode)) return "a directory";
  if (S_ISFIFO(st->st_mode)) return "a FIFO";
  if (S_ISCHR(st->st_mode)) return "a character device";
  if (S_ISBLK(st->st_mode)) return "a block device";
  if (S_ISSOCK(st->st_mode)) return "a socket";
  return "not a regular file";
}

/* Opens path for reading if it is a regular file of at most DART_TOPOLOGY_MAX_FILE_BYTES;
 * returns the descriptor and its size, or -1 with the message in err. Opening does not block
 * (O_NONBLOCK: a FIFO without a writer), and fstat checks the file actually opened. */
static int open_regular(const char* path, size_t* size, char* err, size_t errlen) {
  struct stat st;
  if (stat(path, &st) != 0) {
    snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    return -1;
  }
  int fd = -1;
  if (S_ISREG(st.st_mode)) {
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
      snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
      return -1;
    }
    if (fstat(fd, &st) != 0) {
      snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
      close(fd);
      return -1;
    }
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "%s: cannot read: not a regular file (%s)", path, file_kind(&st));
    if (fd >= 0) close(fd);
    return -1;
  }
  if ((uintmax_t)st.st_size > DART_TOPOLOGY_MAX_FILE_BYTES) {
    snprintf(err, errlen, "%s: %jd bytes, more than the %zu MiB a topology file may have", path,
             (intmax_t)st.st_size, DART_TOPOLOGY_MAX_FILE_BYTES >> 20);
    close(fd);
    return -1;
  }
  *size = (size_t)st.st_size;
  return fd;
}

dart_ret_t dart__topology_parse_file(const char* path, dart_topology_t* out, char* err,
                                     size_t errlen) {
  char scratch[1];
  if (err == NULL || errlen == 0) { /* messages still need somewhere to go */
    err = scratch;
    errlen = sizeof scratch;
  }
  err[0] = '\0';
  if (path == NULL) path = "(null)";
  if (out == NULL) {
    snprintf(err, errlen, "%s: no topology to fill in", path);
    return DART_ERR_INVAL;
  }
  memset(out, 0, sizeof *out);
  size_t size = 0;
  int fd = open_regular(path, &size, err, errlen);
  if (fd < 0) return DART_ERR_INVAL;
  /* Read one byte more than the size: a file that grew since fstat is noticed. */
  const size_t capacity = size + 1;
  char* text = malloc(capacity + 1);
  if (text == NULL) {
    close(fd);
    snprintf(err, errlen, "%s:1: out of memory", path);
    return DART_ERR_NOMEM;
  }
  size_t length = 0;
  dart_ret_t ret = DART_OK;
  while (length < capacity) {
    ssize_t got = read(fd, text + length, capacity - length);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
      ret = DART_ERR_INVAL;
      break;
    }
    if (got == 0) break;
    length += (size_t)got;
  }
  close(fd);
  if (ret == DART_OK && length > size) {
    snprintf(err, errlen, "%s: cannot read: it grew while being read", path);
    ret = DART_ERR_INVAL;
  }
  if (ret == DART_OK) {
    text[length] = '\0';
    char* nul = memchr(text, '\0', length);
    if (nul != NULL) {
      int line = 1;
      for (const char* c = text; c < nul; ++c) line += *c == '\n';
      snprintf(err, errlen, "%s:%d: NUL byte (not a text file)", path, line);
      ret = DART_ERR_INVAL;
    } else {
      ret = dart__topology_parse_text(text, path, out, err, errlen);
    }
  }
  free(text);
  return ret;
}

dart_ret_t dart__topology_unit_keys(const dart_topology_t* topo, int nunits, const int* unit_node,
                                    int key_stride, int64_t* keys) {
  const char* call = "dart__topology_unit_keys";
  if (topo == NULL || nunits < 0 || (nunits > 0 && (unit_node == NULL || keys == NULL)) ||
      key_stride < topo->nlevels + 1) {
    return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                              "need a topology, nunits >= 0 (%d), unit_node, keys and "
                              "key_stride >= nlevels + 1 (%d)",
                              nunits, key_stride);
  }
  for (int u = 0; u < nunits; ++u) {
    int node = unit_node[u];
    if (node < 0 || node >= topo->nnodes) {
      return DART_LOG_ERROR_RET(DART_ERR_INVAL, call,
                                "unit %d is on node %d, the topology describes nodes 0..%d", u,
                                node, topo->nnodes - 1);
    }
    int64_t* row = keys + (size_t)u * (size_t)key_stride;
    for (int l = 0; l < topo->nlevels; ++l) {
      row[l] = topo->coords[(size_t)node * (size_t)topo->nlevels + (size_t)l];
    }
    row[topo->nlevels] = node;
  }
  return DART_OK;
}
