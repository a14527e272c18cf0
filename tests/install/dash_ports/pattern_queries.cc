// Pattern queries as DASH programs make them: a variadic 3-D BlockPattern, global({0, 0, 0}),
// local(coords).coords, local_coords, global(unit, lcoords), capacity, at(i, j, k); DASH's
// default unit grid of a tiled pattern; printing a pattern.
#include <sstream>

#include "check.h"

int main(int argc, char* argv[]) {
  dash::init(&argc, &argv);
  const long n = long(dash::size());
  dash::BlockPattern<3> pattern(3 * n + 1, 4, 5, dash::BLOCKED, dash::NONE, dash::NONE);
  CHECK(pattern.capacity() == pattern.size());
  CHECK(pattern.teamspec().extent(0) == std::size_t(n));
  if (pattern.local_size() > 0) {
    auto origin = pattern.global({0, 0, 0});  // the calling unit's first element
    CHECK(pattern.unit_at(origin) == pattern.myid());
  }
  for (long x = 0; x < 3 * n + 1; ++x)
    for (long y = 0; y < 4; ++y)
      for (long z = 0; z < 5; ++z) {
        std::array<long, 3> g = {x, y, z};
        auto l = pattern.local(g);
        CHECK(l.coords == pattern.local_coords(g));
        CHECK(pattern.global(l.unit, l.coords) == g);
        CHECK(pattern.at(x, y, z) == pattern.local_index(g).index);
      }
  dash::TilePattern<2> tiles(dash::SizeSpec<2>(8 * n, 8),
                             dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(4)));
  CHECK(tiles.teamspec().extent(0) == std::size_t(n));  // every unit in the first TILE dimension
  std::ostringstream text;
  text << tiles;
  CHECK(text.str().find("TilePattern<2>") != std::string::npos);
  report_ok("pattern_queries");
  dash::finalize();
}
