// The containers issue's listing, as written: a global array, a tiled matrix,
// local and global blocks, and a pattern deduced from the properties the
// program needs. Runs on any number of units; unit 0 prints what it saw. --help: the usage.
#include <libdash.h>

#include <cstdio>

#include "../common/Args.h"
#include "../common/Errors.h"

namespace {

const char* const kProgram = "containers-listing";

const char* const kUsage =
    "usage: containers-listing [--help]\n"
    "Builds a global array and a tiled matrix on every unit, reads and writes them,\n"
    "takes local and global blocks and deduces a pattern from properties; unit 0\n"
    "prints what it saw. Exit status 2 on an error.\n"
    "\n"
    "  --help  print this text\n";

// The listing. Collective.
void listing() {
  dash::Array<double> arr(1000, dash::BLOCKED);  // also CYCLIC, BLOCKCYCLIC(n), TILE(n)
  for (auto it = arr.lbegin(); it != arr.lend(); ++it) *it = dash::myid();
  arr.barrier();
  double v = arr[999];  // GlobRef read (one-sided get if remote)
  arr.barrier();
  if (dash::myid() == 0) arr[0] = 42.0;  // GlobRef write
  arr.barrier();
  auto& l = arr.local;  // local view: size(), begin(), end(), operator[]
  dash::TeamSpec<2> teamspec(dash::Team::All());
  dash::SizeSpec<2> sizespec(1024, 768);
  dash::Matrix<double, 2> matrix(sizespec,
                                 dash::DistributionSpec<2>(dash::TILE(32), dash::TILE(32)),
                                 dash::Team::All(), teamspec);
  auto l_block = matrix.local.block(0);  // first local block
  auto m_block = matrix.block({3, 5});   // block by global block coordinates
  auto pattern = dash::make_pattern<
      dash::pattern_partitioning_properties<dash::pattern_partitioning_tag::balanced,
                                            dash::pattern_partitioning_tag::rectangular>,
      dash::pattern_mapping_properties<dash::pattern_mapping_tag::balanced,
                                       dash::pattern_mapping_tag::diagonal>,
      dash::pattern_layout_properties<dash::pattern_layout_tag::blocked,
                                      dash::pattern_layout_tag::linear>>(sizespec, teamspec);
  static_assert(dash::pattern_constraints<
                    decltype(pattern),
                    dash::pattern_partitioning_properties<dash::pattern_partitioning_tag::balanced>,
                    dash::pattern_mapping_properties<dash::pattern_mapping_tag::balanced>,
                    dash::pattern_layout_properties<>>::satisfied::value,
                "");
  static_assert(dash::pattern_layout_traits<decltype(pattern)>::type::blocked, "");
  auto dflt = dash::make_pattern(sizespec, teamspec);  // defaults: canonical, linear layout
  if (dash::myid() == 0) {
    std::printf(
        "containers-listing: %zu units; arr[999] = %g (owner %d), arr[0] = %g, local size %zu\n",
        dash::size(), v, int(arr.pattern().unit_at(999)), double(arr[0]), l.size());
    std::printf(
        "containers-listing: local block 0 %zux%zu at (%lld,%lld); block {3,5} at (%lld,%lld)\n",
        std::size_t(l_block.extent(0)), std::size_t(l_block.extent(1)),
        (long long)l_block.offset(0), (long long)l_block.offset(1), (long long)m_block.offset(0),
        (long long)m_block.offset(1));
    std::printf("containers-listing: make_pattern -> %s with %lldx%lld tiles; default -> %s\n",
                decltype(pattern)::PatternName, (long long)pattern.blocksize(0),
                (long long)pattern.blocksize(1), decltype(dflt)::PatternName);
  }
  arr.barrier();
}

}  // namespace

int main(int argc, char* argv[]) {
  return examples::run(kProgram, kUsage, &argc, &argv, [] {
    listing();
    return 0;
  });
}
