// Pattern properties: a classification of pattern types in three categories,
// so code can ask for a distribution by what it needs instead of by name.
//
//   partitioning  how the index space is cut into blocks
//   mapping       how blocks are dealt to units
//   layout        how a unit's elements lie in its local memory
//
// | category     | tag          | meaning (for the pattern instance)                           |
// |--------------|--------------|--------------------------------------------------------------|
// | partitioning | rectangular  | every block is an N-D rectangle                              |
// |              | minimal      | at most one block per unit                                   |
// |              | regular      | all blocks have the same extents (no underfilled last block) |
// |              | balanced     | all blocks hold the same number of elements                  |
// |              | unbalanced   | block sizes may differ                                       |
// |              | ndimensional | cut in at least two dimensions                               |
// |              | cache_align  | block extents are multiples of a cache line (not offered)    |
// | mapping      | balanced     | block counts of any two units differ by at most one          |
// |              | unbalanced   | block counts may differ                                      |
// |              | neighbor     | blocks adjacent in a dimension go to adjacent units          |
// |              | shifted      | the unit sequence shifts by one from one block row to next   |
// |              | diagonal     | every block row and block column cycles through the units    |
// |              | cyclic       | blocks are dealt round-robin                                 |
// |              | multiple     | a unit may own several blocks                                |
// |              | remote       | blocks may go to units on other nodes                        |
// | layout       | row_major    | linear orders are row-major                                  |
// |              | col_major    | linear orders are column-major                               |
// |              | blocked      | every local block is contiguous in local memory              |
// |              | canonical    | local memory is one N-D array of the unit's local extents    |
// |              | linear       | elements follow the linear order inside a block (blocked) or |
// |              |              | inside the whole local array (canonical)                     |
//
// A pattern type lists the properties it can have (partitioning_properties,
// mapping_properties, layout_properties); pattern_constraints checks a type
// at compile time. Properties that depend on extents and unit count
// (regular, balanced, minimal, ndimensional, mapping balanced) are checked
// for an instance at run time by check_pattern_constraints.
//
// Differences to DASH: mapping "balanced" accepts block counts that differ
// by one (identical counts are impossible for many extent / unit-count
// pairs); pattern_constraints accepts the pattern type first or last.
#ifndef DASH__PATTERN__PATTERN_PROPERTIES_H_
#define DASH__PATTERN__PATTERN_PROPERTIES_H_

#include <dash/Types.h>

#include <algorithm>
#include <string>
#include <type_traits>

namespace dash {

struct pattern_partitioning_tag {
  enum type { any, rectangular, minimal, regular, balanced, unbalanced, ndimensional, cache_align };
};
struct pattern_mapping_tag {
  enum type { any, balanced, unbalanced, neighbor, shifted, diagonal, cyclic, multiple, remote };
};
struct pattern_layout_tag {
  enum type { any, row_major, col_major, blocked, canonical, linear };
};

namespace internal {
template <class E, E... Tags>
constexpr bool has_tag(E tag) {
  (void)tag;  // unused when Tags is empty
  return ((Tags == tag) || ...);
}
}  // namespace internal

// A set of partitioning properties, e.g. <balanced, rectangular>.
template <pattern_partitioning_tag::type... Tags>
struct pattern_partitioning_properties {
  using tag = pattern_partitioning_tag;
#define DASH_PROPERTY(name) \
  static constexpr bool name = internal::has_tag<tag::type, Tags...>(tag::name);
  DASH_PROPERTY(rectangular)
  DASH_PROPERTY(minimal)
  DASH_PROPERTY(regular)
  DASH_PROPERTY(balanced)
  DASH_PROPERTY(unbalanced)
  DASH_PROPERTY(ndimensional)
  DASH_PROPERTY(cache_align)
#undef DASH_PROPERTY
};

// A set of mapping properties, e.g. <balanced, diagonal>.
template <pattern_mapping_tag::type... Tags>
struct pattern_mapping_properties {
  using tag = pattern_mapping_tag;
#define DASH_PROPERTY(name) \
  static constexpr bool name = internal::has_tag<tag::type, Tags...>(tag::name);
  DASH_PROPERTY(balanced)
  DASH_PROPERTY(unbalanced)
  DASH_PROPERTY(neighbor)
  DASH_PROPERTY(shifted)
  DASH_PROPERTY(diagonal)
  DASH_PROPERTY(cyclic)
  DASH_PROPERTY(multiple)
  DASH_PROPERTY(remote)
#undef DASH_PROPERTY
};

// A set of layout properties, e.g. <blocked, linear>.
template <pattern_layout_tag::type... Tags>
struct pattern_layout_properties {
  using tag = pattern_layout_tag;
#define DASH_PROPERTY(name) \
  static constexpr bool name = internal::has_tag<tag::type, Tags...>(tag::name);
  DASH_PROPERTY(row_major)
  DASH_PROPERTY(col_major)
  DASH_PROPERTY(blocked)
  DASH_PROPERTY(canonical)
  DASH_PROPERTY(linear)
#undef DASH_PROPERTY
};

// The short names of the pattern-property paper (Fuchs, Fuerlinger: "A multi-dimensional
// distributed array abstraction for PGAS", HPCC 2016): partitioning_tag, mapping_tag, layout_tag.
using partitioning_tag = pattern_partitioning_tag;
using mapping_tag = pattern_mapping_tag;
using layout_tag = pattern_layout_tag;
template <pattern_partitioning_tag::type... Tags>
using partitioning_properties = pattern_partitioning_properties<Tags...>;
template <pattern_mapping_tag::type... Tags>
using mapping_properties = pattern_mapping_properties<Tags...>;
template <pattern_layout_tag::type... Tags>
using layout_properties = pattern_layout_properties<Tags...>;

// The properties a pattern type can have: ::type is its properties set.
template <class PatternT>
struct pattern_partitioning_traits {
  using type = typename PatternT::partitioning_properties;
};
template <class PatternT>
struct pattern_mapping_traits {
  using type = typename PatternT::mapping_properties;
};
template <class PatternT>
struct pattern_layout_traits {
  using type = typename PatternT::layout_properties;
};

namespace internal {

template <class T>
struct is_partitioning_properties : std::false_type {};
template <pattern_partitioning_tag::type... Tags>
struct is_partitioning_properties<pattern_partitioning_properties<Tags...>> : std::true_type {};

// True if every property `Required` lists is also in `Offered`.
template <class Required, class Offered>
struct partitioning_subset
    : std::bool_constant<(!Required::rectangular || Offered::rectangular) &&
                         (!Required::minimal || Offered::minimal) &&
                         (!Required::regular || Offered::regular) &&
                         (!Required::balanced || Offered::balanced) &&
                         (!Required::unbalanced || Offered::unbalanced) &&
                         (!Required::ndimensional || Offered::ndimensional) &&
                         (!Required::cache_align || Offered::cache_align)> {};
template <class Required, class Offered>
struct mapping_subset
    : std::bool_constant<
          (!Required::balanced || Offered::balanced) &&
          (!Required::unbalanced || Offered::unbalanced) &&
          (!Required::neighbor || Offered::neighbor) && (!Required::shifted || Offered::shifted) &&
          (!Required::diagonal || Offered::diagonal) && (!Required::cyclic || Offered::cyclic) &&
          (!Required::multiple || Offered::multiple) && (!Required::remote || Offered::remote)> {};
template <class Required, class Offered>
struct layout_subset : std::bool_constant<(!Required::row_major || Offered::row_major) &&
                                          (!Required::col_major || Offered::col_major) &&
                                          (!Required::blocked || Offered::blocked) &&
                                          (!Required::canonical || Offered::canonical) &&
                                          (!Required::linear || Offered::linear)> {};

template <class PatternT, class PartC, class MapC, class LayC>
struct constraints_of_pattern {
  using satisfied = std::bool_constant<
      partitioning_subset<PartC, typename pattern_partitioning_traits<PatternT>::type>::value &&
      mapping_subset<MapC, typename pattern_mapping_traits<PatternT>::type>::value &&
      layout_subset<LayC, typename pattern_layout_traits<PatternT>::type>::value>;
};

}  // namespace internal

// pattern_constraints<PartC, MapC, LayC, PatternT>::satisfied (DASH's order)
// or pattern_constraints<PatternT, PartC, MapC, LayC>::satisfied (the order of
// Fuchs & Fürlinger, "Expressing and Exploiting Multi-Dimensional Locality
// in DASH", SPPEXA 2016): std::true_type if the pattern type can have every listed
// property. Compile time.
template <class A, class B, class C, class D>
struct pattern_constraints : std::conditional_t<internal::is_partitioning_properties<A>::value,
                                                internal::constraints_of_pattern<D, A, B, C>,
                                                internal::constraints_of_pattern<A, B, C, D>> {};

// The properties of a pattern instance that depend on its extents and unit
// count, checked against the constraints; returns "" if all hold, else a
// sentence naming each violated property. Local, O(units + N).
template <class PartC, class MapC, class LayC, class PatternT>
std::string pattern_constraint_violations(const PatternT& pattern) {
  std::string out;
  auto fail = [&out](const std::string& what) { out += (out.empty() ? "" : "; ") + what; };
  constexpr dim_t N = PatternT::ndim();
  auto grid = pattern.blockspec();
  bool regular = true;
  int cut_dims = 0;
  for (dim_t d = 0; d < N; ++d) {
    // A dimension of one element cannot hold two blocks: its block of 1 counts as a cut.
    if (grid.extent(d) > 1 || pattern.extent(d) <= 1) ++cut_dims;
    if (pattern.extent(d) % static_cast<typename PatternT::size_type>(pattern.blocksize(d)) != 0)
      regular = false;
  }
  if ((PartC::regular || PartC::balanced) && !regular)
    fail("partitioning regular/balanced: some block extent does not divide the extent");
  if (PartC::ndimensional && cut_dims < 2 && N >= 2)
    fail("partitioning ndimensional: cut in fewer than two dimensions");
  typename PatternT::size_type most = 0, least = ~typename PatternT::size_type(0);
  for (typename PatternT::size_type u = 0; u < pattern.num_units(); ++u) {
    auto n = pattern.local_nblocks(team_unit_t(static_cast<dart_unit_t>(u)));
    most = std::max(most, n);
    least = std::min(least, n);
  }
  if (PartC::minimal && most > 1) fail("partitioning minimal: a unit owns several blocks");
  if (MapC::balanced && most > least + 1)
    fail("mapping balanced: block counts per unit range from " + std::to_string(least) + " to " +
         std::to_string(most));
  (void)sizeof(LayC);
  return out;
}

// True if the pattern instance has the run-time properties the constraints
// ask for (see pattern_constraint_violations). Local.
template <class PartC, class MapC, class LayC, class PatternT>
bool check_pattern_constraints(const PatternT& pattern) {
  return pattern_constraint_violations<PartC, MapC, LayC>(pattern).empty();
}

}  // namespace dash

#endif  // DASH__PATTERN__PATTERN_PROPERTIES_H_
