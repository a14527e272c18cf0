// pattern-visualizer: draws a 2-D pattern as an SVG picture, one square per
// element coloured by the unit that owns it, the block borders on top and,
// for small extents, each element's offset in its owner's local memory. The
// picture to look at when choosing a distribution.
//
// Run (--help lists the options):
//   scripts/launch.sh -n 4 build/openmpi/examples/pattern-visualizer
//       --pattern tile --size 24x32 --dist 'TILE(4),TILE(4)' --output tile.svg
// Every unit builds the pattern on dash::Team::All(); only unit 0 writes the
// file and prints a one-line summary.
#include <dash/pattern/SeqTilePattern.h>
#include <dash/pattern/ShiftTilePattern.h>
#include <libdash.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "../common/Args.h"
#include "../common/Errors.h"

namespace {

const char* const kProgram = "pattern-visualizer";

// Pictures of more elements are neither readable nor small files.
constexpr std::uint64_t kMaxElements = std::uint64_t(1) << 18;
// Elements get their local offset printed inside up to this extent.
constexpr std::uint64_t kMaxLabelledExtent = 64;
// Elements get a tooltip (coordinates, owner, offset) up to this count.
constexpr std::uint64_t kMaxTooltips = std::uint64_t(1) << 16;

const char* const kUsage =
    "usage: pattern-visualizer [options]\n"
    "Writes an SVG picture of which unit owns which element and block of a 2-D\n"
    "pattern built on all units (run it under MPI on the unit count you want).\n"
    "\n"
    "  --pattern P        block, tile, shift-tile or seq-tile (default: tile):\n"
    "                     dash::BlockPattern, TilePattern, ShiftTilePattern,\n"
    "                     SeqTilePattern\n"
    "  --size RxC         extents: rows x columns (default: 24x32)\n"
    "  --dist D0,D1       distribution per dimension, each BLOCKED, CYCLIC, NONE,\n"
    "                     BLOCKCYCLIC(n) or TILE(n) (default: TILE(4),TILE(4))\n"
    "  --team RxC         unit grid, rows x columns; must hold every unit\n"
    "                     (default: balanced over the distributed dimensions)\n"
    "  --output FILE      SVG file to write (default: pattern.svg)\n"
    "  --row-major        linearise in row-major order (default)\n"
    "  --col-major        linearise in column-major order\n"
    "  --help             print this text\n"
    "\n"
    "Options also take the form --option=VALUE. Numbers in the squares are the\n"
    "element's offset in its owner's local memory (shown up to 64x64 elements).\n";

struct Options {
  std::string pattern = "tile";
  std::uint64_t rows = 24, cols = 32;
  std::array<dash::Distribution, 2> dist{dash::TILE(4), dash::TILE(4)};
  std::optional<std::array<std::uint64_t, 2>> team;
  std::string output = "pattern.svg";
  dash::MemArrange arrangement = dash::ROW_MAJOR;
  bool help = false;
};

using examples::UsageError;

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// A positive decimal number, or nothing.
std::optional<std::uint64_t> parse_positive(const std::string& s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (v == 0) return std::nullopt;
  return v;
}

// "24x32" -> {24, 32}.
std::array<std::uint64_t, 2> parse_extents(const std::string& option, const std::string& value) {
  auto x = value.find_first_of("xX");
  std::optional<std::uint64_t> r, c;
  if (x != std::string::npos) {
    r = parse_positive(value.substr(0, x));
    c = parse_positive(value.substr(x + 1));
  }
  if (!r || !c)
    throw UsageError(option + ": '" + value + "' is not ROWSxCOLS with positive numbers");
  return {*r, *c};
}

// "BLOCKED", "TILE(4)", ... (any case).
dash::Distribution parse_distribution(const std::string& text) {
  const std::string s = upper(text);
  if (s == "BLOCKED") return dash::BLOCKED;
  if (s == "CYCLIC") return dash::CYCLIC;
  if (s == "NONE") return dash::NONE;
  for (const char* name : {"BLOCKCYCLIC", "TILE"}) {
    const std::string prefix = std::string(name) + "(";
    if (s.size() > prefix.size() + 1 && s.compare(0, prefix.size(), prefix) == 0 &&
        s.back() == ')') {
      auto n = parse_positive(s.substr(prefix.size(), s.size() - prefix.size() - 1));
      if (!n) throw UsageError("--dist: '" + text + "': the block size must be a positive number");
      return prefix == "TILE(" ? dash::TILE(*n) : dash::BLOCKCYCLIC(*n);
    }
  }
  throw UsageError("--dist: unknown distribution '" + text +
                   "' (expected BLOCKED, CYCLIC, NONE, BLOCKCYCLIC(n) or TILE(n))");
}

// "BLOCKED,TILE(4)": one distribution per dimension.
std::array<dash::Distribution, 2> parse_distspec(const std::string& value) {
  std::vector<std::string> items;
  std::string item;
  for (char c : value) {
    if (c == ',') {
      items.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  items.push_back(item);
  std::vector<dash::Distribution> dists;
  for (const auto& i : items) dists.push_back(parse_distribution(i));
  if (dists.size() != 2)
    throw UsageError("--dist: '" + value + "' names " +
                     (dists.size() == 1 ? std::string("one distribution")
                                        : std::to_string(dists.size()) + " distributions") +
                     "; expected two, DIST,DIST (rows, columns)");
  return {dists[0], dists[1]};
}

Options parse_args(int argc, char** argv) {
  Options o;
  // This program words these as "--x needs a value" and "--x takes no value".
  const examples::Wording wording{" takes no value", " needs a value"};
  examples::for_each_option(argc, argv, wording, [&](examples::Option& opt) {
    const std::string& arg = opt.name();
    if (arg == "--help" || arg == "-h") {
      opt.flag();
      o.help = true;
    } else if (arg == "--row-major") {
      opt.flag();
      o.arrangement = dash::ROW_MAJOR;
    } else if (arg == "--col-major") {
      opt.flag();
      o.arrangement = dash::COL_MAJOR;
    } else if (arg == "--pattern") {
      o.pattern = opt.value();
      if (o.pattern != "block" && o.pattern != "tile" && o.pattern != "shift-tile" &&
          o.pattern != "seq-tile")
        throw UsageError("--pattern: unknown pattern '" + o.pattern +
                         "' (expected block, tile, shift-tile or seq-tile)");
    } else if (arg == "--size") {
      auto e = parse_extents(arg, opt.value());
      o.rows = e[0];
      o.cols = e[1];
      if (o.rows > kMaxElements || o.cols > kMaxElements || o.rows * o.cols > kMaxElements)
        throw UsageError("--size: " + std::to_string(o.rows) + "x" + std::to_string(o.cols) +
                         " has more than " + std::to_string(kMaxElements) +
                         " elements, too many to draw");
    } else if (arg == "--dist") {
      o.dist = parse_distspec(opt.value());
    } else if (arg == "--team") {
      o.team = parse_extents(arg, opt.value());
    } else if (arg == "--output") {
      o.output = opt.value();
      if (o.output.empty()) throw UsageError("--output: empty file name");
    } else if (arg.compare(0, 1, "-") == 0) {
      throw UsageError("unknown option '" + arg + "'");
    } else {
      throw UsageError("unexpected argument '" + arg + "'");
    }
  });
  return o;
}

// ---- text ----

std::string distribution_text(const dash::Distribution& d) {
  std::string s = dash::distribution_name(d.type);
  if (d.type == dash::DistributionType::BLOCKCYCLIC || d.type == dash::DistributionType::TILE)
    s += "(" + std::to_string(d.blocksize) + ")";
  return s;
}

std::string xml_escape(const std::string& s) {
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
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

int digits(std::uint64_t v) {
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
const char* const kPalette[] = {"#3b75af", "#ef8a2c", "#4aa04a", "#d1403f", "#8d6bbd", "#8c5a4a",
                                "#e07bbf", "#7f7f7f", "#b8bd36", "#2ab5c5", "#f2c43d", "#1f4e79"};
constexpr std::size_t kPaletteSize = sizeof kPalette / sizeof kPalette[0];

Rgb hex_to_rgb(const char* hex) {
  unsigned v = static_cast<unsigned>(std::stoul(hex + 1, nullptr, 16));
  return {((v >> 16) & 0xff) / 255.0, ((v >> 8) & 0xff) / 255.0, (v & 0xff) / 255.0};
}

Rgb hsl_to_rgb(double h, double s, double l) {
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

Rgb unit_rgb(std::size_t unit, std::size_t nunits) {
  if (nunits <= kPaletteSize) return hex_to_rgb(kPalette[unit]);
  double hue = std::fmod(static_cast<double>(unit) * 137.50776, 360.0);
  static const double lightness[] = {0.55, 0.40, 0.70};
  return hsl_to_rgb(hue, 0.65, lightness[unit % 3]);
}

std::string rgb_hex(const Rgb& c) {
  auto byte = [](double v) { return static_cast<int>(std::lround(std::clamp(v, 0.0, 1.0) * 255)); };
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", byte(c.r), byte(c.g), byte(c.b));
  return buf;
}

// Dark text on light colours, light text on dark ones.
bool is_light(const Rgb& c) { return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b > 0.5; }

// ---- the picture ----

struct Summary {
  std::string name, extents, dist, team;
};

template <class Pattern>
Summary describe(const Pattern& pattern) {
  Summary s;
  s.name = Pattern::PatternName;
  s.extents = std::to_string(pattern.extent(0)) + "x" + std::to_string(pattern.extent(1));
  s.dist =
      distribution_text(pattern.distspec()[0]) + "," + distribution_text(pattern.distspec()[1]);
  s.team = std::to_string(pattern.teamspec().extent(0)) + "x" +
           std::to_string(pattern.teamspec().extent(1));
  return s;
}

// The SVG of `pattern`: element squares (class "e"), offset labels, block
// borders (class "b"), a legend with one swatch per unit (class "u").
// team_grid: the pattern deals blocks over the TeamSpec grid, so the legend
// shows each unit's grid coordinates.
template <class Pattern>
std::string render_svg(const Pattern& pattern, bool team_grid) {
  using index_type = typename Pattern::index_type;
  using coords = std::array<index_type, 2>;
  const Summary sum = describe(pattern);
  const bool col_major = Pattern::memory_order() == dash::COL_MAJOR;
  const std::uint64_t rows = pattern.extent(0), cols = pattern.extent(1);
  const std::size_t nunits = pattern.num_units();
  const std::uint64_t maxext = std::max(rows, cols);
  const bool labels = maxext <= kMaxLabelledExtent;

  // Owner and local offset of every element, straight from the pattern.
  std::vector<std::size_t> owner(rows * cols);
  std::vector<index_type> offset(rows * cols);
  index_type max_offset = 0;
  for (std::uint64_t r = 0; r < rows; ++r) {
    for (std::uint64_t c = 0; c < cols; ++c) {
      auto l = pattern.local_index(coords{index_type(r), index_type(c)});
      owner[r * cols + c] = static_cast<std::size_t>(l.unit.id);
      offset[r * cols + c] = l.index;
      max_offset = std::max(max_offset, l.index);
    }
  }
  std::vector<std::string> fill(nunits);
  std::vector<bool> light(nunits);
  for (std::size_t u = 0; u < nunits; ++u) {
    Rgb rgb = unit_rgb(u, nunits);
    fill[u] = rgb_hex(rgb);
    light[u] = is_light(rgb);
  }

  // Geometry: element squares of `cell` pixels.
  // With labels the squares are large enough for 7-pixel offsets.
  const double char_w = 0.62;  // monospace advance / font size
  const double cell = labels ? std::max(std::clamp(960.0 / double(maxext), 16.0, 40.0),
                                        std::ceil(7 * char_w * digits(max_offset) / 0.9))
                             : std::max(2.0, std::floor(1024.0 / double(maxext)));
  const double margin = 16;
  const double axis_font = std::clamp(cell * 0.5, 8.0, 11.0);
  // Axis labels every `step` elements, far enough apart to be legible.
  auto axis_step = [&](std::uint64_t extent) {
    double need = digits(extent - 1) * char_w * axis_font + 4;
    for (std::uint64_t step = 1;; step *= 10) {
      for (std::uint64_t m : {1, 2, 5}) {
        if (double(step * m) * cell >= need) return step * m;
      }
    }
  };
  const std::uint64_t row_step = axis_step(rows), col_step = axis_step(cols);

  const std::string title = sum.name + "<2, " + (col_major ? "COL_MAJOR" : "ROW_MAJOR") + "> | " +
                            sum.extents + " | dist " + sum.dist + " | team " + sum.team + " | " +
                            std::to_string(nunits) + (nunits == 1 ? " unit" : " units");
  const std::string subtitle =
      "thick lines: block borders (" + std::to_string(pattern.blockspec().extent(0)) + "x" +
      std::to_string(pattern.blockspec().extent(1)) + " blocks); every unit allocates " +
      std::to_string(pattern.local_capacity()) + " elements (local capacity)";
  const std::string subtitle2 =
      labels ? "numbers: each element's offset in its owner's local memory" : "";
  const double title_h = labels ? 62 : 46;
  const double gx = margin + digits(rows - 1) * char_w * axis_font + 6;
  const double gy = margin + title_h + axis_font + 6;
  const double gw = double(cols) * cell, gh = double(rows) * cell;

  // Blocks and the units owning them (the owner of a block's first element).
  const auto bspec = pattern.blockspec();
  std::vector<std::uint64_t> unit_blocks(nunits);
  std::ostringstream blocks;
  for (std::uint64_t br = 0; br < bspec.extent(0); ++br) {
    for (std::uint64_t bc = 0; bc < bspec.extent(1); ++bc) {
      auto b = pattern.block(coords{index_type(br), index_type(bc)});
      if (b.size() == 0) continue;
      ++unit_blocks[pattern.unit_at(coords{b.offset(0), b.offset(1)}).id];
      blocks << "<rect class=\"b\" x=\"" << num(gx + double(b.offset(1)) * cell) << "\" y=\""
             << num(gy + double(b.offset(0)) * cell) << "\" width=\""
             << num(double(b.extent(1)) * cell) << "\" height=\"" << num(double(b.extent(0)) * cell)
             << "\"/>\n";
    }
  }

  // Legend: one entry per unit, in columns as wide as the longest entry.
  std::vector<std::string> entries(nunits);
  std::size_t longest = 0;
  for (std::size_t u = 0; u < nunits; ++u) {
    const auto size = pattern.local_size(dash::team_unit_t(static_cast<dart_unit_t>(u)));
    std::string e = "unit " + std::to_string(u);
    if (team_grid) {
      const auto tc = pattern.teamspec().coords(static_cast<index_type>(u));
      e += " (" + std::to_string(tc[0]) + "," + std::to_string(tc[1]) + ")";
    }
    e += ": " + std::to_string(size) + (size == 1 ? " element, " : " elements, ") +
         std::to_string(unit_blocks[u]) + (unit_blocks[u] == 1 ? " block" : " blocks");
    longest = std::max(longest, e.size());
    entries[u] = e;
  }
  const double legend_font = 12, legend_row_h = 20;
  const double legend_col_w = 20 + double(longest) * char_w * legend_font + 24;
  const double width =
      std::max({gx + gw + margin, margin * 2 + double(title.size()) * char_w * 15,
                margin * 2 + double(subtitle.size()) * char_w * 12, margin * 2 + legend_col_w});
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
  svg << "<text x=\"" << num(margin) << "\" y=\"" << num(margin + 15)
      << "\" font-size=\"15\" font-weight=\"bold\">" << xml_escape(title) << "</text>\n";
  svg << "<text x=\"" << num(margin) << "\" y=\"" << num(margin + 35)
      << "\" font-size=\"12\" fill=\"#444444\">" << xml_escape(subtitle) << "</text>\n";
  if (!subtitle2.empty())
    svg << "<text x=\"" << num(margin) << "\" y=\"" << num(margin + 51)
        << "\" font-size=\"12\" fill=\"#444444\">" << xml_escape(subtitle2) << "</text>\n";

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

  // Element squares, with a tooltip naming coordinates, owner and offset
  // (left out for huge pictures, where it would make most of the file).
  const bool tooltips = rows * cols <= kMaxTooltips;
  svg << "<g>\n";
  for (std::uint64_t r = 0; r < rows; ++r) {
    for (std::uint64_t c = 0; c < cols; ++c) {
      const std::size_t u = owner[r * cols + c];
      svg << "<rect class=\"e\" x=\"" << num(gx + double(c) * cell) << "\" y=\""
          << num(gy + double(r) * cell) << "\" width=\"" << num(cell) << "\" height=\"" << num(cell)
          << "\" fill=\"" << fill[u] << "\"";
      if (tooltips) {
        svg << "><title>(" << r << "," << c << ") global index "
            << pattern.global_index(coords{index_type(r), index_type(c)}) << ": unit " << u
            << ", local offset " << offset[r * cols + c] << "</title></rect>\n";
      } else {
        svg << "/>\n";
      }
    }
  }
  svg << "</g>\n";

  // Local offsets inside the squares.
  if (labels) {
    const double font = std::min(cell * 0.42, cell * 0.9 / (char_w * digits(max_offset)));
    svg << "<g font-size=\"" << num(font) << "\" text-anchor=\"middle\">\n";
    for (std::uint64_t r = 0; r < rows; ++r) {
      for (std::uint64_t c = 0; c < cols; ++c) {
        const std::size_t u = owner[r * cols + c];
        svg << "<text class=\"" << (light[u] ? "d" : "l") << "\" x=\""
            << num(gx + (double(c) + 0.5) * cell) << "\" y=\""
            << num(gy + (double(r) + 0.5) * cell + font * 0.36) << "\">" << offset[r * cols + c]
            << "</text>\n";
      }
    }
    svg << "</g>\n";
  }

  svg << "<g>\n" << blocks.str() << "</g>\n";

  // Legend.
  svg << "<text x=\"" << num(margin) << "\" y=\"" << num(ly + 4)
      << "\" font-size=\"12\" font-weight=\"bold\">units"
      << (team_grid ? " (team grid coordinates)" : "") << ": local size</text>\n";
  svg << "<g font-size=\"" << num(legend_font) << "\">\n";
  for (std::size_t u = 0; u < nunits; ++u) {
    const double x = margin + double(u / legend_rows) * legend_col_w;
    const double y = ly + 12 + double(u % legend_rows) * legend_row_h;
    svg << "<rect class=\"u\" x=\"" << num(x) << "\" y=\"" << num(y)
        << "\" width=\"14\" height=\"14\" fill=\"" << fill[u] << "\"/>\n";
    svg << "<text x=\"" << num(x + 20) << "\" y=\"" << num(y + 11) << "\">"
        << xml_escape(entries[u]) << "</text>\n";
  }
  svg << "</g>\n</svg>\n";
  return svg.str();
}

// The default unit grid: balanced over the distributed dimensions (DASH's
// TeamSpec(dist, team) puts every unit in one dimension).
dash::TeamSpec<2> balanced_team_spec(const dash::DistributionSpec<2>& dist, dash::Team& team) {
  dash::TeamSpec<2> ts(dist, team);
  if (dist[0].type != dash::DistributionType::NONE && dist[1].type != dash::DistributionType::NONE)
    ts.balance_extents();
  return ts;
}

// Builds the pattern (every unit), writes the SVG and the summary (unit 0).
template <class Pattern>
int visualize(const Options& o, bool team_grid) {
  dash::Team& team = dash::Team::All();
  const dash::SizeSpec<2> sizespec(o.rows, o.cols);
  const dash::DistributionSpec<2> distspec(o.dist[0], o.dist[1]);
  // Every unit builds the same pattern, so all agree when it rejects the combination (a
  // --team grid that does not hold every unit, a NONE dimension spread over several units).
  const Pattern pattern = [&] {
    try {
      const dash::TeamSpec<2> teamspec = o.team ? dash::TeamSpec<2>((*o.team)[0], (*o.team)[1])
                                                : balanced_team_spec(distspec, team);
      return Pattern(sizespec, distspec, teamspec, team);
    } catch (const dash::exception::InvalidArgument& e) {
      throw UsageError(e.what());
    }
  }();
  if (team.myid().id != 0) return 0;

  const std::string svg = render_svg(pattern, team_grid);
  std::ofstream out(o.output, std::ios::binary);
  out << svg;
  out.close();
  if (!out) {
    std::fprintf(stderr, "%s: error: cannot write '%s'\n", kProgram, o.output.c_str());
    return 1;
  }
  const Summary s = describe(pattern);
  std::printf("%s: %s %s %s team %s%s -> %s\n", kProgram, s.name.c_str(), s.extents.c_str(),
              s.dist.c_str(), s.team.c_str(),
              Pattern::memory_order() == dash::COL_MAJOR ? " col-major" : "", o.output.c_str());
  std::fflush(stdout);
  return 0;
}

template <dash::MemArrange Arr>
int visualize_arranged(const Options& o) {
  // Block and tile patterns deal blocks over the TeamSpec grid; the shifted
  // and sequential tile patterns only count the units.
  if (o.pattern == "block") return visualize<dash::BlockPattern<2, Arr>>(o, true);
  if (o.pattern == "shift-tile") return visualize<dash::ShiftTilePattern<2, Arr>>(o, false);
  if (o.pattern == "seq-tile") return visualize<dash::SeqTilePattern<2, Arr>>(o, false);
  return visualize<dash::TilePattern<2, Arr>>(o, true);
}

}  // namespace

int main(int argc, char* argv[]) {
  return examples::run_with_options(
      kProgram, kUsage, &argc, &argv, parse_args, [](const Options& o) {
        return o.arrangement == dash::COL_MAJOR ? visualize_arranged<dash::COL_MAJOR>(o)
                                                : visualize_arranged<dash::ROW_MAJOR>(o);
      });
}
