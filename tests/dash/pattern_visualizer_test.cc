// dash::tools::PatternVisualizer (DASH's <dash/tools/PatternVisualizer.h>): the SVG of a
// pattern has one square per element (or per block with blocked_display), one border per block
// and one legend swatch per unit; the title and description given are drawn; an N-D pattern is
// drawn as the 2-D slice its arguments choose; shifted tiles get a legend without grid
// coordinates; dash::util::PatternMetrics counts blocks and elements per unit. Local: every unit
// draws and checks.
#include <dash/Init.h>
#include <dash/Pattern.h>
#include <dash/pattern/ShiftTilePattern.h>
#include <dash/tools/PatternVisualizer.h>
#include <dash/util/PatternMetrics.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "mpi_test.h"

namespace {

// Occurrences of `what` in `text`.
std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(PatternVisualizer, ElementsBlocksUnitsAndTitle) {
  // 10 x 7 in tiles of 4 x 3: 3 x 3 tiles, underfilled at the edges.
  dash::TilePattern<2> p(dash::SizeSpec<2>(10, 7),
                         dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
  dash::tools::PatternVisualizer<dash::TilePattern<2>> pv(p);
  pv.set_title("ten by seven <tiles>");
  pv.set_description("a description");
  std::ostringstream out;
  pv.draw_pattern(out);
  const std::string svg = out.str();
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_EQ(Count(svg, "<rect class=\"e\""), 70u);
  EXPECT_EQ(Count(svg, "<rect class=\"b\""), 9u);
  EXPECT_EQ(Count(svg, "<rect class=\"u\""), dash::size());
  EXPECT_NE(svg.find("ten by seven &lt;tiles&gt;"), std::string::npos);  // escaped
  EXPECT_NE(svg.find("a description"), std::string::npos);
  EXPECT_NE(svg.find("TilePattern&lt;2, ROW_MAJOR&gt; | 10x7 | dist TILE(4),TILE(3)"),
            std::string::npos);
  // The last element's tooltip: its global index in the pattern's order and its owner.
  const auto l = p.local_index({9, 6});
  EXPECT_NE(svg.find("(9,6) global index " + std::to_string(p.global_index({9, 6})) + ": unit " +
                     std::to_string(l.unit.id) + ", local offset " + std::to_string(l.index)),
            std::string::npos);
  // Blocked display: one square per block, no borders.
  const std::string blocks = pv.svg(true);
  EXPECT_EQ(Count(blocks, "<rect class=\"e\""), 9u);
  EXPECT_EQ(Count(blocks, "<rect class=\"b\""), 0u);
  EXPECT_NE(blocks.find("block (2,2): elements from (8,6), 2x1"), std::string::npos);
}

TEST(PatternVisualizer, SliceOfThreeDimensions) {
  dash::TilePattern<3> p(dash::SizeSpec<3>(4, 5, 6),
                         dash::DistributionSpec<3>(dash::TILE(2), dash::TILE(5), dash::TILE(3)));
  dash::tools::PatternVisualizer<dash::TilePattern<3>> pv(p);
  // Dimension 0 down, dimension 2 across, at index 3 of dimension 1.
  const std::string svg = pv.svg(false, {0, 3, 0}, 2, 0);
  EXPECT_EQ(Count(svg, "<rect class=\"e\""), 4u * 6u);
  EXPECT_EQ(Count(svg, "<rect class=\"b\""), 2u * 2u);
  EXPECT_NE(svg.find("(3,5) global index " + std::to_string(p.global_index({3, 3, 5}))),
            std::string::npos);
}

TEST(PatternVisualizer, ShiftedTilesCountUnitsOnly) {
  const long n = long(dash::size());
  dash::ShiftTilePattern<2> p(dash::SizeSpec<2>(4 * n, 3 * n),
                              dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
  const std::string svg = dash::tools::PatternVisualizer<dash::ShiftTilePattern<2>>(p).svg();
  EXPECT_EQ(Count(svg, "<rect class=\"e\""), std::size_t(12 * n * n));
  EXPECT_EQ(Count(svg, "<rect class=\"b\""), std::size_t(n * n));
  EXPECT_NE(svg.find("units: local size"), std::string::npos);
  EXPECT_NE(svg.find("unit 0: " + std::to_string(12 * n) + " elements, " + std::to_string(n) +
                     (n == 1 ? " block" : " blocks")),
            std::string::npos);
}

TEST(PatternMetrics, CountsBlocksAndElementsPerUnit) {
  // 10 x 7 in tiles of 4 x 3 (3 x 3 tiles, the last row and column underfilled) on every unit.
  dash::TilePattern<2> p(dash::SizeSpec<2>(10, 7),
                         dash::DistributionSpec<2>(dash::TILE(4), dash::TILE(3)));
  const std::size_t n = dash::size();
  std::vector<int> blocks(n, 0), elements(n, 0);
  for (long br = 0; br < 3; ++br)
    for (long bc = 0; bc < 3; ++bc) ++blocks[std::size_t(p.unit_at({br * 4, bc * 3}).id)];
  for (long r = 0; r < 10; ++r)
    for (long c = 0; c < 7; ++c) ++elements[std::size_t(p.unit_at({r, c}).id)];
  dash::util::PatternMetrics<dash::TilePattern<2>> pm(p);
  EXPECT_EQ(pm.num_blocks(), 9);
  const int min_b = *std::min_element(blocks.begin(), blocks.end());
  const int max_b = *std::max_element(blocks.begin(), blocks.end());
  const int min_e = *std::min_element(elements.begin(), elements.end());
  const int max_e = *std::max_element(elements.begin(), elements.end());
  EXPECT_EQ(pm.min_blocks_per_unit(), min_b);
  EXPECT_EQ(pm.max_blocks_per_unit(), max_b);
  EXPECT_EQ(pm.min_elements_per_unit(), min_e);
  EXPECT_EQ(pm.max_elements_per_unit(), max_e);
  EXPECT_EQ(pm.num_balanced_units(), int(std::count(blocks.begin(), blocks.end(), min_b)));
  EXPECT_EQ(pm.num_imbalanced_units(),
            min_b == max_b ? 0 : int(std::count(blocks.begin(), blocks.end(), max_b)));
  EXPECT_DOUBLE_EQ(pm.imbalance_factor(), double(max_e) / double(min_e));
  for (std::size_t u = 0; u < n; ++u)
    EXPECT_EQ(pm.unit_local_blocks(dash::team_unit_t(dart_unit_t(u))), blocks[u]);
}

}  // namespace
