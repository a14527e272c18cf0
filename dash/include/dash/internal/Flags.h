// The C++ layer's environment flags (DASH_*) in one table: name, kind, bounds, default, and
// whether every unit must give the same value. dash::init checks each of them with DART's
// strict parser (dart/dart_flags.h) before MPI starts and compares the agreed ones across the
// units; every layer reads its flags through read_flag_*() below, so a flag's bounds, words and
// default are written once. DART's own flags (DART_*) are DART's (dart_flags_check). The
// flag reference, docs/flags.md, lists the same names with the same defaults, in the same order
// (the test-only flags, named *_TEST_*, in a table of their own; tests/dash/flags_test.cc
// compares them).
#ifndef DASH__INTERNAL__FLAGS_H_
#define DASH__INTERNAL__FLAGS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dash {
namespace internal {

enum class FlagKind { integer, bytes, boolean, choice, text };

// The flags, in the order docs/flags.md lists them (the test-only ones apart, in a table of
// their own, in this order too).
enum class Flag {
  copy_async_thread,
  copy_async_threshold,
  io_aggregators,
  io_buffer_size,
  io_aggr_tier,
  io_persistency,
  io_subfiling,
  io_aggregation,
  io_burst_buffer,
  io_test_fail_drain,
  io_tiers,
  io_explain,
  io_node_dir,
  io_test_fail_write,
  ooc_dir,
  ooc_max_bytes,
  ooc_direct,
  ooc_huge_pages,
  ooc_test_fail_write,
  ooc_mem_blocks,
  ooc_queue_inline,
  bp_exchange_sparse_units,
  bp_test_send_delay_us,
  bp_test_seed,
  count
};

struct FlagSpec {
  Flag flag;
  const char* name;
  FlagKind kind;
  std::uint64_t min, max;    // integer, bytes: the bounds; text: the longest value (max)
  std::uint64_t fallback;    // integer, bytes: the default; boolean: 0 or 1; choice: its word
  const char* const* words;  // choice: the words a value may be
  int nwords;
  bool agreed;        // steers collective operations: must be alike on every unit
  const char* shown;  // the default as docs/flags.md shows it
  // dash::init refuses a malformed value; false only for fault-injection flags that the call
  // reading them refuses instead, on the unit that has it (a failure on one unit, for tests).
  bool checked_at_init = true;
};

namespace flag_words {
inline constexpr const char* kCopyAsyncThread[] = {"0",    "1",  "off", "on",  "false",
                                                   "true", "no", "yes", "auto"};
inline constexpr const char* kIoTier[] = {"dram", "hbm", "shm", "disk", "auto"};
inline constexpr const char* kIoAggregation[] = {"on", "off", "auto"};
}  // namespace flag_words

namespace flag_table {
constexpr std::uint64_t KiB = 1024, MiB = KiB << 10, GiB = MiB << 10, TiB = GiB << 10;
constexpr std::uint64_t kNoMax = ~std::uint64_t(0);
constexpr FlagSpec number(Flag f, const char* name, FlagKind kind, std::uint64_t min,
                          std::uint64_t max, std::uint64_t fallback, bool agreed,
                          const char* shown) {
  return FlagSpec{f, name, kind, min, max, fallback, nullptr, 0, agreed, shown};
}
constexpr FlagSpec boolean(Flag f, const char* name, bool fallback, bool agreed,
                           const char* shown) {
  return FlagSpec{f, name, FlagKind::boolean, 0, 1, fallback ? 1u : 0u, nullptr, 0, agreed, shown};
}
template <int N>
constexpr FlagSpec choice(Flag f, const char* name, const char* const (&words)[N], int fallback,
                          bool agreed, const char* shown) {
  return FlagSpec{f,     name, FlagKind::choice, 0,    0, std::uint64_t(fallback),
                  words, N,    agreed,           shown};
}
constexpr FlagSpec text(Flag f, const char* name, std::uint64_t longest, bool agreed,
                        const char* shown) {
  return FlagSpec{f, name, FlagKind::text, 0, longest, 0, nullptr, 0, agreed, shown};
}
// The same entry, refused by the call that reads it, not by dash::init.
constexpr FlagSpec call_checked(FlagSpec s) {
  s.checked_at_init = false;
  return s;
}
using K = FlagKind;
using F = Flag;
}  // namespace flag_table

// One entry per Flag, in its order (checked below).
inline constexpr FlagSpec kFlags[] = {
    flag_table::choice(flag_table::F::copy_async_thread, "DASH_COPY_ASYNC_THREAD",
                       flag_words::kCopyAsyncThread, 8, false, "`auto`"),
    flag_table::number(flag_table::F::copy_async_threshold, "DASH_COPY_ASYNC_THRESHOLD",
                       flag_table::K::bytes, 0, flag_table::TiB, 64 * flag_table::KiB, false,
                       "`64K`"),
    flag_table::number(flag_table::F::io_aggregators, "DASH_IO_AGGREGATORS", flag_table::K::integer,
                       0, std::uint64_t(1) << 24, 0, true, "`0` (one per node)"),
    flag_table::number(flag_table::F::io_buffer_size, "DASH_IO_BUFFER_SIZE", flag_table::K::bytes,
                       4 * flag_table::KiB, flag_table::GiB, 4 * flag_table::MiB, true, "`4M`"),
    flag_table::choice(flag_table::F::io_aggr_tier, "DASH_IO_AGGR_TIER", flag_words::kIoTier, 4,
                       true, "`auto`"),
    flag_table::boolean(flag_table::F::io_persistency, "DASH_IO_PERSISTENCY", false, true, "`0`"),
    flag_table::number(flag_table::F::io_subfiling, "DASH_IO_SUBFILING", flag_table::K::integer, 0,
                       std::uint64_t(1) << 24, 0, true, "`0` (one file)"),
    flag_table::choice(flag_table::F::io_aggregation, "DASH_IO_AGGREGATION",
                       flag_words::kIoAggregation, 2, true, "`auto`"),
    flag_table::boolean(flag_table::F::io_burst_buffer, "DASH_IO_BURST_BUFFER", false, true, "`0`"),
    flag_table::boolean(flag_table::F::io_test_fail_drain, "DASH_IO_TEST_FAIL_DRAIN", false, false,
                        "`0`"),
    flag_table::text(flag_table::F::io_tiers, "DASH_IO_TIERS", 4095, true, "none (probe)"),
    flag_table::boolean(flag_table::F::io_explain, "DASH_IO_EXPLAIN", false, false, "`0`"),
    flag_table::text(flag_table::F::io_node_dir, "DASH_IO_NODE_DIR", 4095, false,
                     "`$TMPDIR`, else `/tmp`"),
    flag_table::number(flag_table::F::io_test_fail_write, "DASH_IO_TEST_FAIL_WRITE",
                       flag_table::K::integer, 0, std::uint64_t(1) << 40, 0, false, "`0`"),
    flag_table::text(flag_table::F::ooc_dir, "DASH_OOC_DIR", 4000, false, "`$TMPDIR`, else `/tmp`"),
    flag_table::number(flag_table::F::ooc_max_bytes, "DASH_OOC_MAX_BYTES", flag_table::K::bytes, 0,
                       std::uint64_t(1) << 50, 0, false, "`0` (no limit)"),
    flag_table::boolean(flag_table::F::ooc_direct, "DASH_OOC_DIRECT", false, false, "`0`"),
    flag_table::boolean(flag_table::F::ooc_huge_pages, "DASH_OOC_HUGE_PAGES", true, false, "`1`"),
    flag_table::number(flag_table::F::ooc_test_fail_write, "DASH_OOC_TEST_FAIL_WRITE",
                       flag_table::K::integer, 0, std::uint64_t(1) << 40, 0, false, "`0`"),
    flag_table::number(flag_table::F::ooc_mem_blocks, "DASH_OOC_MEM_BLOCKS", flag_table::K::integer,
                       0, std::uint64_t(1) << 30, 0, false, "`0` (no limit)"),
    flag_table::number(flag_table::F::ooc_queue_inline, "DASH_OOC_QUEUE_INLINE",
                       flag_table::K::bytes, 0, flag_table::TiB, 4 * flag_table::KiB, false,
                       "`4K`"),
    flag_table::number(flag_table::F::bp_exchange_sparse_units, "DASH_BP_EXCHANGE_SPARSE_UNITS",
                       flag_table::K::integer, 0, std::uint64_t(1) << 30, 8, true, "`8`"),
    flag_table::call_checked(
        flag_table::number(flag_table::F::bp_test_send_delay_us, "DASH_BP_TEST_SEND_DELAY_US",
                           flag_table::K::integer, 0, 1000000, 0, false, "`0`")),
    flag_table::call_checked(flag_table::number(flag_table::F::bp_test_seed, "DASH_BP_TEST_SEED",
                                                flag_table::K::integer, 0, 0xffffffffu, 0, false,
                                                "`0`")),
};

constexpr bool flag_table_in_order() {
  if (sizeof kFlags / sizeof kFlags[0] != std::size_t(Flag::count)) return false;
  for (std::size_t i = 0; i < std::size_t(Flag::count); ++i)
    if (kFlags[i].flag != Flag(i)) return false;
  return true;
}
static_assert(flag_table_in_order(), "kFlags: one entry per Flag, in its order");

// The table's entry of flag f. Local.
constexpr const FlagSpec& flag_spec(Flag f) { return kFlags[std::size_t(f)]; }

// The value of an integer or byte-size flag, or its default when unset. A malformed value
// throws exception::InvalidArgument "<who>: environment flag NAME has malformed value ...".
// Local: a getenv and a scan of the value.
std::uint64_t read_flag_number(Flag f, const char* who);
// A boolean flag's value, or its default; malformed: as read_flag_number. Local.
bool read_flag_bool(Flag f, const char* who);
// The index of a choice flag's word in flag_spec(f).words, or its default; malformed: as
// read_flag_number. Local.
int read_flag_choice(Flag f, const char* who);
// A text flag's value (pointing into the environment), or nullptr when unset; malformed: as
// read_flag_number. Local.
const char* read_flag_text(Flag f, const char* who);
// A boolean flag's value, its default when unset or malformed: for threads that cannot throw
// (dash::init has refused a malformed value). Local.
bool read_flag_bool_or_default(Flag f) noexcept;

// Checks every flag of the table checked at init (FlagSpec::checked_at_init): throws
// exception::InvalidArgument "<who>: ..." naming the first malformed one. Local; works before
// dart_init.
void check_flags(const char* who);
// The names of the flags every unit must give alike (FlagSpec::agreed). Local.
std::vector<const char*> agreed_flag_names();

}  // namespace internal
}  // namespace dash

#endif  // DASH__INTERNAL__FLAGS_H_
