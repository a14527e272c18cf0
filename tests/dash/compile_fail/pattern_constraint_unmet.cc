// Must NOT compile: a canonical layout with a diagonal mapping is offered by
// no pattern type, so make_pattern's static_assert fires. Registered in
// CTest with WILL_FAIL.
#include <dash/pattern/MakePattern.h>

int main() {
  using Part = dash::pattern_partitioning_properties<>;
  using Map = dash::pattern_mapping_properties<dash::pattern_mapping_tag::diagonal>;
  using Lay = dash::pattern_layout_properties<dash::pattern_layout_tag::canonical>;
  dash::TeamSpec<2> teamspec(2, 2);
  auto p = dash::make_pattern<Part, Map, Lay>(dash::SizeSpec<2>(8, 8), teamspec);
  return int(p.size());
}
