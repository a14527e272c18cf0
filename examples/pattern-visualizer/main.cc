// pattern-visualizer: draws a 2-D pattern as an SVG picture, one square per
// element coloured by the unit that owns it, the block borders on top and,
// for small extents, each element's offset in its owner's local memory. The
// picture to look at when choosing a distribution. The drawing is
// dash::tools::PatternVisualizer's (<dash/tools/PatternVisualizer.h>).
//
// Run (--help lists the options):
//   scripts/launch.sh -n 4 build/openmpi/examples/pattern-visualizer
//       --pattern tile --size 24x32 --dist 'TILE(4),TILE(4)' --output tile.svg
// Every unit builds the pattern on dash::Team::All(); only unit 0 writes the
// file and prints a one-line summary.
#include <dash/pattern/SeqTilePattern.h>
#include <dash/pattern/ShiftTilePattern.h>
#include <dash/tools/PatternVisualizer.h>
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
constexpr std::uint64_t kMaxElements = dash::tools::internal::kMaxSquares;
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

std::string distribution_text(const dash::Distribution& d) {
  return dash::tools::internal::distribution_text(d);
}

// The one-line summary's parts.
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
int visualize(const Options& o) {
  dash::Team& team = dash::Team::All();
  const dash::SizeSpec<2> sizespec(o.rows, o.cols);
  const dash::DistributionSpec<2> distspec(o.dist[0], o.dist[1]);
  // Every unit builds the same pattern, so all agree when it rejects the combination (a
  // --team grid that does not hold every unit, a NONE dimension spread over several units).
  // Patterns themselves take a grid of any size (DASH's rule); this program draws the run's
  // own units, so it asks for the team's.
  const Pattern pattern = [&] {
    try {
      const dash::TeamSpec<2> teamspec = o.team ? dash::TeamSpec<2>((*o.team)[0], (*o.team)[1])
                                                : balanced_team_spec(distspec, team);
      if (teamspec.size() != team.size())
        throw UsageError("--team " + std::to_string(teamspec.extent(0)) + "x" +
                         std::to_string(teamspec.extent(1)) + " holds " +
                         std::to_string(teamspec.size()) + " units, the run has " +
                         std::to_string(team.size()));
      return Pattern(sizespec, distspec, teamspec, team);
    } catch (const dash::exception::InvalidArgument& e) {
      throw UsageError(e.what());
    }
  }();
  if (team.myid().id != 0) return 0;

  // The picture: dash::tools::PatternVisualizer (<dash/tools/PatternVisualizer.h>).
  const std::string svg = dash::tools::PatternVisualizer<Pattern>(pattern).svg();
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
  if (o.pattern == "block") return visualize<dash::BlockPattern<2, Arr>>(o);
  if (o.pattern == "shift-tile") return visualize<dash::ShiftTilePattern<2, Arr>>(o);
  if (o.pattern == "seq-tile") return visualize<dash::SeqTilePattern<2, Arr>>(o);
  return visualize<dash::TilePattern<2, Arr>>(o);
}

}  // namespace

int main(int argc, char* argv[]) {
  return examples::run_with_options(
      kProgram, kUsage, &argc, &argv, parse_args, [](const Options& o) {
        return o.arrangement == dash::COL_MAJOR ? visualize_arranged<dash::COL_MAJOR>(o)
                                                : visualize_arranged<dash::ROW_MAJOR>(o);
      });
}
