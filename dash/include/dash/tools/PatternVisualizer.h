// dash::tools::PatternVisualizer<PatternT>: an SVG picture of a pattern, under DASH's header
// path: one square per element (or per block) coloured by the unit that owns it, the block
// borders on top, each element's offset in its owner's local memory where the picture is small
// enough to print it, a tooltip per square and a legend of the units. The pattern-visualizer
// example draws with it.
//
//   dash::tools::PatternVisualizer<decltype(pattern)> pv(pattern);
//   pv.set_title("TilePattern 24 x 32");
//   std::ofstream out("pattern.svg");
//   pv.draw_pattern(out);        // elements; draw_pattern(out, true): blocks
//
// Local: reads the pattern only (its team's units need not take part).
#ifndef DASH__TOOLS__PATTERN_VISUALIZER_H_
#define DASH__TOOLS__PATTERN_VISUALIZER_H_

#include <dash/Types.h>
#include <dash/pattern/Distribution.h>
#include <dash/pattern/PatternProperties.h>
#include <dash/view/ViewFunctions.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace dash {
namespace tools {
namespace internal {

// Pictures of more squares than this are neither readable nor small files: element pictures
// beyond it are drawn as blocks.
constexpr std::uint64_t kMaxSquares = std::uint64_t(1) << 18;
// Squares get their number printed inside up to this extent.
constexpr std::uint64_t kMaxLabelledExtent = 64;
// Squares get a tooltip up to this count.
constexpr std::uint64_t kMaxTooltips = std::uint64_t(1) << 16;

// ---- text ----

inline std::string distribution_text(const Distribution& d) {
  std::string s = distribution_name(d.type);
  if (d.type == DistributionType::BLOCKCYCLIC || d.type == DistributionType::TILE)
    s += "(" + std::to_string(d.blocksize) + ")";
  return s;
}

inline std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Number formatting for coordinates: at most two decimals, no trailing zeros.
inline std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

inline int digits(std::uint64_t v) {
  int n = 1;
  while (v >= 10) {
    v /= 10;
    ++n;
  }
  return n;
}

// ---- colours ----

struct Rgb {
  double r, g, b;  // 0..1
};

// Twelve well-separated colours for the first units; beyond twelve units
// every unit gets a hue of its own (golden-angle steps) so neighbouring unit
// ids never look alike.
inline const char* const kPalette[] = {"#3b75af", "#ef8a2c", "#4aa04a", "#d1403f",
                                       "#8d6bbd", "#8c5a4a", "#e07bbf", "#7f7f7f",
                                       "#b8bd36", "#2ab5c5", "#f2c43d", "#1f4e79"};
constexpr std::size_t kPaletteSize = sizeof kPalette / sizeof kPalette[0];

inline Rgb hex_to_rgb(const char* hex) {
  unsigned v = static_cast<unsigned>(std::stoul(hex + 1, nullptr, 16));
  return {((v >> 16) & 0xff) / 255.0, ((v >> 8) & 0xff) / 255.0, (v & 0xff) / 255.0};
}

inline Rgb hsl_to_rgb(double h, double s, double l) {
  double c = (1 - std::fabs(2 * l - 1)) * s;
  double hp = h / 60.0;
  double x = c * (1 - std::fabs(std::fmod(hp, 2.0) - 1));
  Rgb rgb{0, 0, 0};
  if (hp < 1)
    rgb = {c, x, 0};
  else if (hp < 2)
    rgb = {x, c, 0};
  else if (hp < 3)
    rgb = {0, c, x};
  else if (hp < 4)
    rgb = {0, x, c};
  else if (hp < 5)
    rgb = {x, 0, c};
  else
    rgb = {c, 0, x};
  double m = l - c / 2;
  return {rgb.r + m, rgb.g + m, rgb.b + m};
}

inline Rgb unit_rgb(std::size_t unit, std::size_t nunits) {
  if (nunits <= kPaletteSize) return hex_to_rgb(kPalette[unit]);
  double hue = std::fmod(static_cast<double>(unit) * 137.50776, 360.0);
  static const double lightness[] = {0.55, 0.40, 0.70};
  return hsl_to_rgb(hue, 0.65, lightness[unit % 3]);
}

inline std::string rgb_hex(const Rgb& c) {
  auto byte = [](double v) { return static_cast<int>(std::lround(std::clamp(v, 0.0, 1.0) * 255)); };
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", byte(c.r), byte(c.g), byte(c.b));
  return buf;
}

// Dark text on light colours, light text on dark ones.
inline bool is_light(const Rgb& c) { return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b > 0.5; }

// ---- the picture ----

// What render_svg draws: a rows x cols grid of squares, each owned by a unit (its colour) and
// carrying a number (printed when `labels`) and a tooltip; thick borders around groups of
// squares (the blocks); a legend line per unit.
struct SvgGrid {
  struct Box {
    std::uint64_t row, col, rows, cols;
  };
  std::uint64_t rows = 0, cols = 0;
  std::vector<std::size_t> owner;    // [r * cols + c]
  std::vector<std::int64_t> label;   // [r * cols + c]
  std::vector<std::string> tooltip;  // [r * cols + c], or empty: none
  bool labels = false;
  std::vector<Box> borders;
  std::size_t nunits = 0;
  std::vector<std::string> legend;  // one line per unit
  std::string legend_heading;
  std::vector<std::string> title;  // the first line bold, the others below it
};

// The SVG of `grid`: squares (class "e"), their numbers, borders (class "b"), a legend with one
// swatch per unit (class "u"). Local.
inline std::string render_svg(const SvgGrid& grid) {
  const std::uint64_t rows = grid.rows, cols = grid.cols;
  const std::size_t nunits = grid.nunits;
  const std::uint64_t maxext = std::max<std::uint64_t>({rows, cols, 1});
  const bool labels = grid.labels;
  std::int64_t max_label = 0;
  for (std::int64_t l : grid.label) max_label = std::max(max_label, l);
  std::vector<std::string> fill(nunits);
  std::vector<bool> light(nunits);
  for (std::size_t u = 0; u < nunits; ++u) {
    Rgb rgb = unit_rgb(u, nunits);
    fill[u] = rgb_hex(rgb);
    light[u] = is_light(rgb);
  }

  // Geometry: squares of `cell` pixels; with labels large enough for 7-pixel numbers.
  const double char_w = 0.62;  // monospace advance / font size
  const double cell = labels
                          ? std::max(std::clamp(960.0 / double(maxext), 16.0, 40.0),
                                     std::ceil(7 * char_w * digits(std::uint64_t(max_label)) / 0.9))
                          : std::max(2.0, std::floor(1024.0 / double(maxext)));
  const double margin = 16;
  const double axis_font = std::clamp(cell * 0.5, 8.0, 11.0);
  // Axis labels every `step` squares, far enough apart to be legible.
  auto axis_step = [&](std::uint64_t extent) {
    double need = digits(extent > 0 ? extent - 1 : 0) * char_w * axis_font + 4;
    for (std::uint64_t step = 1;; step *= 10) {
      for (std::uint64_t m : {1, 2, 5}) {
        if (double(step * m) * cell >= need) return step * m;
      }
    }
  };
  const std::uint64_t row_step = axis_step(rows), col_step = axis_step(cols);
  const std::size_t lines = grid.title.size();
  const double title_h = 30 + 16 * double(lines > 0 ? lines - 1 : 0);
  const double gx = margin + digits(rows > 0 ? rows - 1 : 0) * char_w * axis_font + 6;
  const double gy = margin + title_h + axis_font + 6;
  const double gw = double(cols) * cell, gh = double(rows) * cell;

  std::size_t longest = 0;
  for (const std::string& e : grid.legend) longest = std::max(longest, e.size());
  const double legend_font = 12, legend_row_h = 20;
  const double legend_col_w = 20 + double(longest) * char_w * legend_font + 24;
  double width = std::max(gx + gw + margin, margin * 2 + legend_col_w);
  for (std::size_t i = 0; i < lines; ++i)
    width =
        std::max(width, margin * 2 + double(grid.title[i].size()) * char_w * (i == 0 ? 15 : 12));
  const std::size_t legend_cols =
      std::max<std::size_t>(1, static_cast<std::size_t>((width - 2 * margin) / legend_col_w));
  const std::size_t legend_rows = (nunits + legend_cols - 1) / legend_cols;
  const double ly = gy + gh + 24;
  const double height = ly + 18 + double(legend_rows) * legend_row_h + margin;

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\""
      << num(height) << "\" viewBox=\"0 0 " << num(width) << " " << num(height) << "\">\n";
  const double block_stroke = std::clamp(cell / 10, 1.0, 2.5);
  svg << "<style>\n"
      << "text{font-family:DejaVu Sans Mono,Menlo,Consolas,monospace}\n"
      << ".e{shape-rendering:crispEdges;stroke:#ffffff;stroke-width:" << (cell >= 6 ? "0.5" : "0")
      << "}\n"
      << ".b{fill:none;stroke:#111111;stroke-width:" << num(block_stroke) << "}\n"
      << ".u{stroke:#333333;stroke-width:0.5}\n"
      << ".d{fill:#111111}\n.l{fill:#ffffff}\n"
      << "</style>\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  for (std::size_t i = 0; i < lines; ++i) {
    if (i == 0) {
      svg << "<text x=\"" << num(margin) << "\" y=\"" << num(margin + 15)
          << "\" font-size=\"15\" font-weight=\"bold\">" << xml_escape(grid.title[0])
          << "</text>\n";
    } else {
      svg << "<text x=\"" << num(margin) << "\" y=\"" << num(margin + 35 + 16 * double(i - 1))
          << "\" font-size=\"12\" fill=\"#444444\">" << xml_escape(grid.title[i]) << "</text>\n";
    }
  }

  // Axes: column indices above, row indices to the left.
  svg << "<g font-size=\"" << num(axis_font) << "\" fill=\"#555555\">\n";
  for (std::uint64_t c = 0; c < cols; c += col_step)
    svg << "<text x=\"" << num(gx + (double(c) + 0.5) * cell) << "\" y=\"" << num(gy - 4)
        << "\" text-anchor=\"middle\">" << c << "</text>\n";
  for (std::uint64_t r = 0; r < rows; r += row_step)
    svg << "<text x=\"" << num(gx - 4) << "\" y=\""
        << num(gy + (double(r) + 0.5) * cell + axis_font * 0.35) << "\" text-anchor=\"end\">" << r
        << "</text>\n";
  svg << "</g>\n";

  // Squares, with their tooltips.
  const bool tooltips = !grid.tooltip.empty();
  svg << "<g>\n";
  for (std::uint64_t r = 0; r < rows; ++r) {
    for (std::uint64_t c = 0; c < cols; ++c) {
      const std::size_t u = grid.owner[r * cols + c];
      svg << "<rect class=\"e\" x=\"" << num(gx + double(c) * cell) << "\" y=\""
          << num(gy + double(r) * cell) << "\" width=\"" << num(cell) << "\" height=\"" << num(cell)
          << "\" fill=\"" << fill[u] << "\"";
      if (tooltips) {
        svg << "><title>" << xml_escape(grid.tooltip[r * cols + c]) << "</title></rect>\n";
      } else {
        svg << "/>\n";
      }
    }
  }
  svg << "</g>\n";

  // Numbers inside the squares.
  if (labels) {
    const double font =
        std::min(cell * 0.42, cell * 0.9 / (char_w * digits(std::uint64_t(max_label))));
    svg << "<g font-size=\"" << num(font) << "\" text-anchor=\"middle\">\n";
    for (std::uint64_t r = 0; r < rows; ++r) {
      for (std::uint64_t c = 0; c < cols; ++c) {
        const std::size_t u = grid.owner[r * cols + c];
        svg << "<text class=\"" << (light[u] ? "d" : "l") << "\" x=\""
            << num(gx + (double(c) + 0.5) * cell) << "\" y=\""
            << num(gy + (double(r) + 0.5) * cell + font * 0.36) << "\">" << grid.label[r * cols + c]
            << "</text>\n";
      }
    }
    svg << "</g>\n";
  }

  svg << "<g>\n";
  for (const SvgGrid::Box& b : grid.borders)
    svg << "<rect class=\"b\" x=\"" << num(gx + double(b.col) * cell) << "\" y=\""
        << num(gy + double(b.row) * cell) << "\" width=\"" << num(double(b.cols) * cell)
        << "\" height=\"" << num(double(b.rows) * cell) << "\"/>\n";
  svg << "</g>\n";

  // Legend.
  svg << "<text x=\"" << num(margin) << "\" y=\"" << num(ly + 4)
      << "\" font-size=\"12\" font-weight=\"bold\">" << xml_escape(grid.legend_heading)
      << "</text>\n";
  svg << "<g font-size=\"" << num(legend_font) << "\">\n";
  for (std::size_t u = 0; u < nunits; ++u) {
    const double x = margin + double(u / legend_rows) * legend_col_w;
    const double y = ly + 12 + double(u % legend_rows) * legend_row_h;
    svg << "<rect class=\"u\" x=\"" << num(x) << "\" y=\"" << num(y)
        << "\" width=\"14\" height=\"14\" fill=\"" << fill[u] << "\"/>\n";
    svg << "<text x=\"" << num(x + 20) << "\" y=\"" << num(y + 11) << "\">"
        << xml_escape(grid.legend[u]) << "</text>\n";
  }
  svg << "</g>\n</svg>\n";
  return svg.str();
}

}  // namespace internal

// Draws a pattern (see the file comment). PatternT: a pattern of two or more dimensions;
// N-D patterns are drawn as the 2-D slice through `coords` spanned by dimensions dimy (down)
// and dimx (across).
template <class PatternT>
class PatternVisualizer {
 public:
  using index_type = typename PatternT::index_type;
  using coords_type = std::array<index_type, PatternT::ndim()>;
  static_assert(PatternT::ndim() >= 2, "dash::tools::PatternVisualizer draws 2-D slices");

  // Keeps a reference to pattern, which must outlive the visualizer. Local.
  explicit PatternVisualizer(const PatternT& pattern, const std::string& title = "",
                             const std::string& description = "")
      : pattern_(pattern), title_(title), description_(description) {}

  // The title drawn at the top (default: the pattern's type, extents, distribution and team).
  void set_title(const std::string& title) { title_ = title; }
  const std::string& title() const { return title_; }
  // A line drawn under the title.
  void set_description(const std::string& description) { description_ = description; }
  const std::string& description() const { return description_; }

  // Writes the SVG picture to os: one square per element, or per block if blocked_display (or
  // if the slice has more than 2^18 elements). Local, O(squares).
  void draw_pattern(std::ostream& os, bool blocked_display = false, coords_type coords = {},
                    int dimx = 1, int dimy = 0) const {
    os << svg(blocked_display, coords, dimx, dimy);
  }

  // The SVG picture draw_pattern writes. Local, O(squares).
  std::string svg(bool blocked_display = false, coords_type coords = {}, int dimx = 1,
                  int dimy = 0) const {
    const PatternT& p = pattern_;
    const std::uint64_t rows = p.extent(dimy), cols = p.extent(dimx);
    const bool blocks = blocked_display || rows * cols > internal::kMaxSquares;
    // Block and tile patterns deal blocks over the TeamSpec grid; the shifted and sequential
    // tile patterns only count the units.
    constexpr bool team_grid = dash::internal::has_local_rectangle<PatternT>::value;
    internal::SvgGrid g;
    g.nunits = p.num_units();
    std::vector<std::uint64_t> unit_blocks(g.nunits);
    const auto bspec = p.blockspec();
    // The blocks of the slice: block coordinates along dimy and dimx, the others those of coords.
    coords_type bc;
    for (dim_t d = 0; d < PatternT::ndim(); ++d) bc[d] = coords[d] / p.blocksize(d);
    for (std::uint64_t br = 0; br < std::uint64_t(bspec.extent(dimy)); ++br) {
      for (std::uint64_t bcol = 0; bcol < std::uint64_t(bspec.extent(dimx)); ++bcol) {
        bc[dimy] = index_type(br);
        bc[dimx] = index_type(bcol);
        const auto b = p.block(bc);
        if (b.size() == 0) continue;
        ++unit_blocks[p.unit_at(b.offsets()).id];
        if (!blocks)
          g.borders.push_back({std::uint64_t(b.offset(dimy)), std::uint64_t(b.offset(dimx)),
                               std::uint64_t(b.extent(dimy)), std::uint64_t(b.extent(dimx))});
      }
    }
    if (blocks) {
      g.rows = bspec.extent(dimy);
      g.cols = bspec.extent(dimx);
      g.labels = std::max(g.rows, g.cols) <= internal::kMaxLabelledExtent;
      const bool tips = g.rows * g.cols <= internal::kMaxTooltips;
      for (std::uint64_t r = 0; r < g.rows; ++r) {
        for (std::uint64_t c = 0; c < g.cols; ++c) {
          bc[dimy] = index_type(r);
          bc[dimx] = index_type(c);
          const auto b = p.block(bc);
          const std::size_t u = std::size_t(p.unit_at(b.offsets()).id);
          g.owner.push_back(u);
          g.label.push_back(std::int64_t(u));
          if (tips)
            g.tooltip.push_back("block (" + std::to_string(r) + "," + std::to_string(c) +
                                "): elements from (" + std::to_string(b.offset(dimy)) + "," +
                                std::to_string(b.offset(dimx)) + "), " +
                                std::to_string(b.extent(dimy)) + "x" +
                                std::to_string(b.extent(dimx)) + ", unit " + std::to_string(u));
        }
      }
    } else {
      g.rows = rows;
      g.cols = cols;
      g.labels = std::max(rows, cols) <= internal::kMaxLabelledExtent;
      const bool tips = rows * cols <= internal::kMaxTooltips;
      coords_type x = coords;
      for (std::uint64_t r = 0; r < rows; ++r) {
        for (std::uint64_t c = 0; c < cols; ++c) {
          x[dimy] = index_type(r);
          x[dimx] = index_type(c);
          const auto l = p.local_index(x);
          g.owner.push_back(std::size_t(l.unit.id));
          g.label.push_back(std::int64_t(l.index));
          if (tips)
            g.tooltip.push_back("(" + std::to_string(r) + "," + std::to_string(c) +
                                ") global index " + std::to_string(p.global_index(x)) + ": unit " +
                                std::to_string(l.unit.id) + ", local offset " +
                                std::to_string(l.index));
        }
      }
    }

    // Title lines.
    std::string generated =
        std::string(PatternT::PatternName) + "<" + std::to_string(PatternT::ndim()) + ", " +
        (PatternT::memory_order() == COL_MAJOR ? "COL_MAJOR" : "ROW_MAJOR") + "> | ";
    std::string dist, team, ext;
    for (dim_t d = 0; d < PatternT::ndim(); ++d) {
      ext += (d ? "x" : "") + std::to_string(p.extent(d));
      dist += (d ? "," : "") + internal::distribution_text(p.distspec()[d]);
      team += (d ? "x" : "") + std::to_string(p.teamspec().extent(d));
    }
    generated += ext + " | dist " + dist + " | team " + team + " | " + std::to_string(g.nunits) +
                 (g.nunits == 1 ? " unit" : " units");
    if (!title_.empty()) g.title.push_back(title_);
    g.title.push_back(generated);
    if (!description_.empty()) g.title.push_back(description_);
    g.title.push_back(std::string(blocks ? "squares: blocks (" : "thick lines: block borders (") +
                      std::to_string(bspec.extent(dimy)) + "x" +
                      std::to_string(bspec.extent(dimx)) + " blocks); every unit allocates " +
                      std::to_string(p.local_capacity()) + " elements (local capacity)");
    if (g.labels)
      g.title.push_back(blocks ? "numbers: the unit owning each block"
                               : "numbers: each element's offset in its owner's local memory");

    // Legend.
    for (std::size_t u = 0; u < g.nunits; ++u) {
      const auto size = p.local_size(team_unit_t(static_cast<dart_unit_t>(u)));
      std::string e = "unit " + std::to_string(u);
      if constexpr (team_grid) {
        const auto tc = p.teamspec().coords(static_cast<index_type>(u));
        e += " (";
        for (dim_t d = 0; d < PatternT::ndim(); ++d) e += (d ? "," : "") + std::to_string(tc[d]);
        e += ")";
      }
      e += ": " + std::to_string(size) + (size == 1 ? " element, " : " elements, ") +
           std::to_string(unit_blocks[u]) + (unit_blocks[u] == 1 ? " block" : " blocks");
      g.legend.push_back(e);
    }
    g.legend_heading =
        std::string("units") + (team_grid ? " (team grid coordinates)" : "") + ": local size";
    return internal::render_svg(g);
  }

 private:
  const PatternT& pattern_;
  std::string title_, description_;
};

}  // namespace tools
}  // namespace dash

#endif  // DASH__TOOLS__PATTERN_VISUALIZER_H_
