// C++-only consumer of an installed dash (its project enables no C): a dash::Array filled by
// every unit and summed; prints "consumer_cxx_only: unit <i> of <n>" on every unit when the
// sum is right.
#include <libdash.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  dash::init(&argc, &argv);
  const int me = int(dash::myid().id), n = int(dash::size());
  dash::Array<long> a(std::size_t(10 * n));
  for (auto& v : a.local) v = 1;
  a.barrier();
  const long sum = dash::accumulate(a.begin(), a.end(), 0L);
  const bool right = sum == 10L * n;
  // One write per line, so lines of different units do not interleave.
  const std::string line = right ? "consumer_cxx_only: unit " + std::to_string(me) + " of " +
                                       std::to_string(n) + "\n"
                                 : "consumer_cxx_only: sum " + std::to_string(sum) + "\n";
  std::fputs(line.c_str(), stdout);
  dash::finalize();
  return right ? 0 : 1;
}
