// Image reductions with dash::bp::reduce, one block per unit, against the
// MPI collective that computes the same thing and against the same rounds
// written by hand with MPI point-to-point calls:
//   BM_reduce_merge/<k>/<width>  RegularMergePartners: the sum of every
//                                unit's image at block 0
//       mpi_reduce  MPI_Reduce(MPI_SUM) to unit 0
//       mpi_p2p     the merge's groups by hand: MPI_Send to the group root,
//                   which MPI_Recvs every member into a preallocated buffer
//                   and adds them up
//   BM_reduce_swap/<k>/<width>   RegularSwapPartners: each block ends with
//                                its slice of the sum
//       mpi_reduce_scatter  MPI_Reduce_scatter_block (MPI_Reduce_scatter
//                           when the units do not divide the pixels)
//       mpi_p2p     the swap's groups by hand: MPI_Isend of every other
//                   member's part, MPI_Recv of ours from each, add
//   BM_reduce_merge_copying/<k>/<width>, BM_reduce_swap_copying/<k>/<width>
//       the same reductions through the copying interface (enqueue / dequeue of vectors kept
//       between passes), against the same baselines plus the zero-copy passes (zero_copy);
//       page_faults_per_pass: unit 0's minor page faults per pass (median)
// Images are width x width pixels of 4 floats (16 bytes per pixel), summed.
// The blocks form one row of the block grid (divisions {units, 1}), so k = 4
// on 4 units is one round of 4 and k = 2 two rounds of 2. The callbacks are
// written the efficient way (every side's image is written anew before its
// pass, as an application's is computed just before it is reduced): own
// pixels stay in the block, pieces go out
// without a copy (enqueue_view) and are summed as they arrive
// (dequeue_combine: received in 256 KiB pieces, each added while in cache).
// Side view_then_add: the same callbacks with dequeue_view and one
// cache-blocked add of all of a call's pieces, as the hand-written side adds.
// add_into is compiled with -O3 (bench/CMakeLists.txt), vectorised as MPI's
// own reduction operators are. The image is restored before
// every pass that changes it (untimed). All sides are checked once against
// each other (integer-valued floats: exact sums). Counters: ns per pixel of
// each side and ratio_vs_<baseline> (median of dash / baseline; the target
// is <= 1.2 against the MPI collective).
#include <benchmark/benchmark.h>
#include <dash/Init.h>
#include <dash/Team.h>
#include <dash/bp/Decomposer.h>
#include <dash/bp/Master.h>
#include <dash/bp/Reduce.h>
#include <mpi.h>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "../support/paired.h"

namespace {

constexpr std::size_t kFloatsPerPixel = 4;

struct Image {
  std::vector<float> input;                  // this unit's image, never changed
  std::vector<float> work;                   // what the reduction sums into
  std::size_t begin = 0, end = 0;            // swap: the floats this block holds
  std::vector<const float*> inputs;          // this call's received pieces (capacity kept)
  std::vector<std::vector<float>> received;  // the copying passes' dequeued pieces (kept)
};

struct ReduceCase {
  int units = 1, me = 0;
  std::size_t width = 0, pixels = 0, floats = 0;
  std::unique_ptr<dash::bp::Master<Image>> master;
  std::unique_ptr<dash::bp::RegularDecomposer<2>> decomposer;
  Image* image = nullptr;
  std::vector<float> mpi_in, mpi_out;  // baseline image and result
  std::vector<int> scatter_counts;     // baseline slices (floats), when not equal
  // The hand-written side: its image, receive buffers, and per round this
  // unit's group (the partners' groups, in position order) and position.
  std::vector<float> p2p_work, p2p_recv;
  std::size_t p2p_begin = 0, p2p_end = 0;
  std::vector<std::vector<int>> groups;
  std::vector<std::size_t> positions;
  std::vector<const float*> p2p_inputs;
  std::vector<MPI_Request> requests;
};

std::unique_ptr<ReduceCase> make_case(std::size_t width) {
  auto c = std::make_unique<ReduceCase>();
  c->units = int(dash::size());
  c->me = int(dash::myid().id);
  c->width = width;
  c->pixels = width * width;
  c->floats = c->pixels * kFloatsPerPixel;
  const long w = long(width);
  c->decomposer = std::make_unique<dash::bp::RegularDecomposer<2>>(dash::bp::Box<2>{{0, 0}, {w, w}},
                                                                   c->units, std::array<bool, 2>{},
                                                                   std::array<int, 2>{c->units, 1});
  c->master = std::make_unique<dash::bp::Master<Image>>(c->units);
  auto img = std::make_unique<Image>();
  img->input.resize(c->floats);
  for (std::size_t i = 0; i < c->floats; ++i) img->input[i] = float((c->me + 1) * (i % 13));
  img->work = img->input;
  c->image = img.get();
  c->master->add(c->me, std::move(img), {});
  c->mpi_in = c->image->input;
  c->mpi_out.resize(c->floats);
  for (int u = 0; u < c->units; ++u) {
    const std::size_t lo = c->pixels * std::size_t(u) / std::size_t(c->units);
    const std::size_t hi = c->pixels * std::size_t(u + 1) / std::size_t(c->units);
    c->scatter_counts.push_back(int((hi - lo) * kFloatsPerPixel));
  }
  return c;
}

// Part j of m of the pixels in floats [begin, end), in floats.
std::pair<std::size_t, std::size_t> part(std::size_t begin, std::size_t end, std::size_t j,
                                         std::size_t m) {
  const std::size_t pixels = (end - begin) / kFloatsPerPixel;
  return {begin + pixels * j / m * kFloatsPerPixel, begin + pixels * (j + 1) / m * kFloatsPerPixel};
}

// out[i] += each input's [i], i < n, in cache-sized chunks (out's chunk
// stays in cache while the inputs are added).
void add_into(float* out, const std::vector<const float*>& inputs, std::size_t n) {
  constexpr std::size_t kChunk = 4096;
  for (std::size_t lo = 0; lo < n; lo += kChunk) {
    const std::size_t hi = std::min(n, lo + kChunk);
    for (const float* in : inputs)
      for (std::size_t i = lo; i < hi; ++i) out[i] += in[i];
  }
}

void restore(ReduceCase& c) {
  std::copy(c.image->input.begin(), c.image->input.end(), c.image->work.begin());
  c.image->begin = 0;
  c.image->end = c.floats;
}

// The collective's image written anew, as the other sides' are before their passes.
void restore_mpi(ReduceCase& c) {
  std::copy(c.image->input.begin(), c.image->input.end(), c.mpi_in.begin());
}

void restore_p2p(ReduceCase& c) {
  std::copy(c.image->input.begin(), c.image->input.end(), c.p2p_work.begin());
  c.p2p_begin = 0;
  c.p2p_end = c.floats;
}

// This unit's group and position in every round of the partners (gid ==
// unit), and receive buffers for the largest group (which can exceed k: a
// prime division count above k is one group).
template <class Partners>
void plan_p2p(ReduceCase& c, const Partners& partners, bool merge) {
  std::size_t largest = 1;
  for (int r = 0; r < partners.rounds(); ++r) {
    std::vector<int> group;
    if (merge) {
      if (!partners.active(r, c.me)) break;
      std::vector<int> root;
      partners.outgoing(r, c.me, root);
      if (root[0] == c.me)
        partners.incoming(r + 1, c.me, group);
      else
        group = {root[0], c.me};  // position 1: not the root
    } else {
      partners.outgoing(r, c.me, group);
    }
    largest = std::max(largest, group.size());
    c.positions.push_back(std::size_t(std::find(group.begin(), group.end(), c.me) - group.begin()));
    c.groups.push_back(std::move(group));
  }
  c.p2p_work = c.image->input;
  c.p2p_recv.resize(c.floats * (largest - 1));
  c.p2p_inputs.reserve(largest);
  c.requests.resize(largest);
}

// Merge by hand: non-roots send their image to the root and stop; roots
// receive every member's, then add.
void merge_p2p(ReduceCase& c) {
  for (std::size_t r = 0; r < c.groups.size(); ++r) {
    const std::vector<int>& group = c.groups[r];
    if (c.positions[r] != 0) {
      MPI_Send(c.p2p_work.data(), int(c.floats), MPI_FLOAT, group[0], 7, MPI_COMM_WORLD);
      return;
    }
    c.p2p_inputs.clear();
    for (std::size_t j = 1; j < group.size(); ++j) {
      float* buf = c.p2p_recv.data() + (j - 1) * c.floats;
      MPI_Recv(buf, int(c.floats), MPI_FLOAT, group[j], 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      c.p2p_inputs.push_back(buf);
    }
    add_into(c.p2p_work.data(), c.p2p_inputs, c.floats);
  }
}

// Swap by hand: send every other member its part, receive ours from each,
// add.
void swap_p2p(ReduceCase& c) {
  for (std::size_t r = 0; r < c.groups.size(); ++r) {
    const std::vector<int>& group = c.groups[r];
    const std::size_t m = group.size(), pos = c.positions[r];
    int nreq = 0;
    for (std::size_t j = 0; j < m; ++j) {
      if (j == pos) continue;
      const auto [lo, hi] = part(c.p2p_begin, c.p2p_end, j, m);
      MPI_Isend(c.p2p_work.data() + lo, int(hi - lo), MPI_FLOAT, group[j], 8, MPI_COMM_WORLD,
                &c.requests[std::size_t(nreq++)]);
    }
    std::tie(c.p2p_begin, c.p2p_end) = part(c.p2p_begin, c.p2p_end, pos, m);
    const std::size_t n = c.p2p_end - c.p2p_begin;
    c.p2p_inputs.clear();
    for (std::size_t j = 0; j < m; ++j) {
      if (j == pos) continue;
      float* buf = c.p2p_recv.data() + c.p2p_inputs.size() * c.floats;
      MPI_Recv(buf, int(n), MPI_FLOAT, group[j], 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      c.p2p_inputs.push_back(buf);
    }
    MPI_Waitall(nreq, c.requests.data(), MPI_STATUSES_IGNORE);
    add_into(c.p2p_work.data() + c.p2p_begin, c.p2p_inputs, n);
  }
}

// Merge: roots sum what their group sent as it arrives (their own pixels
// are in place), everybody else sends its pixels to the root.
void merge_pass(ReduceCase& c, const dash::bp::RegularMergePartners<2>& partners) {
  dash::bp::reduce(*c.master, partners, [](Image& img, dash::bp::ReduceProxy& rp) {
    for (int from : rp.in_link())
      if (from != rp.gid())
        rp.dequeue_combine(from, img.work.data(), img.work.size(), std::plus<>());
    for (int to : rp.out_link())
      if (to != rp.gid()) rp.enqueue_view(to, img.work.data(), img.work.size());
  });
}

// The same merge reading the pieces in place (dequeue_view), then adding
// them in one cache-blocked pass.
void merge_view_pass(ReduceCase& c, const dash::bp::RegularMergePartners<2>& partners) {
  dash::bp::reduce(*c.master, partners, [](Image& img, dash::bp::ReduceProxy& rp) {
    img.inputs.clear();
    for (int from : rp.in_link())
      if (from != rp.gid()) img.inputs.push_back(rp.dequeue_view<float>(from).data());
    add_into(img.work.data(), img.inputs, img.work.size());
    for (int to : rp.out_link())
      if (to != rp.gid()) rp.enqueue_view(to, img.work.data(), img.work.size());
  });
}

// Swap: each block keeps the part at its position in the group and sends
// the others theirs; received parts are summed into the kept one as they
// arrive.
void swap_pass(ReduceCase& c, const dash::bp::RegularSwapPartners<2>& partners) {
  dash::bp::reduce(*c.master, partners, [](Image& img, dash::bp::ReduceProxy& rp) {
    const auto& in = rp.in_link();
    if (!in.empty()) {
      const std::size_t pos = std::size_t(std::find(in.begin(), in.end(), rp.gid()) - in.begin());
      std::tie(img.begin, img.end) = part(img.begin, img.end, pos, in.size());
      for (int from : in)
        if (from != rp.gid())
          rp.dequeue_combine(from, img.work.data() + img.begin, img.end - img.begin, std::plus<>());
    }
    const auto& out = rp.out_link();
    for (std::size_t j = 0; j < out.size(); ++j) {
      if (out[j] == rp.gid()) continue;
      const auto [lo, hi] = part(img.begin, img.end, j, out.size());
      rp.enqueue_view(out[j], img.work.data() + lo, hi - lo);
    }
  });
}

// The same swap reading the parts in place (dequeue_view), then adding them
// in one cache-blocked pass.
void swap_view_pass(ReduceCase& c, const dash::bp::RegularSwapPartners<2>& partners) {
  dash::bp::reduce(*c.master, partners, [](Image& img, dash::bp::ReduceProxy& rp) {
    const auto& in = rp.in_link();
    if (!in.empty()) {
      const std::size_t pos = std::size_t(std::find(in.begin(), in.end(), rp.gid()) - in.begin());
      std::tie(img.begin, img.end) = part(img.begin, img.end, pos, in.size());
      img.inputs.clear();
      for (int from : in)
        if (from != rp.gid()) img.inputs.push_back(rp.dequeue_view<float>(from).data());
      add_into(img.work.data() + img.begin, img.inputs, img.end - img.begin);
    }
    const auto& out = rp.out_link();
    for (std::size_t j = 0; j < out.size(); ++j) {
      if (out[j] == rp.gid()) continue;
      const auto [lo, hi] = part(img.begin, img.end, j, out.size());
      rp.enqueue_view(out[j], img.work.data() + lo, hi - lo);
    }
  });
}

// The copying interface: the same merge with enqueue(to, vector) and dequeue(from, vector)
// (the queue's bytes copied once each way) into vectors kept between passes.
void merge_copy_pass(ReduceCase& c, const dash::bp::RegularMergePartners<2>& partners) {
  dash::bp::reduce(*c.master, partners, [](Image& img, dash::bp::ReduceProxy& rp) {
    if (img.received.size() < rp.in_link().size()) img.received.resize(rp.in_link().size());
    img.inputs.clear();
    for (int from : rp.in_link()) {
      if (from == rp.gid()) continue;
      std::vector<float>& piece = img.received[img.inputs.size()];
      rp.dequeue(from, piece);
      img.inputs.push_back(piece.data());
    }
    add_into(img.work.data(), img.inputs, img.work.size());
    for (int to : rp.out_link())
      if (to != rp.gid()) rp.enqueue(to, img.work);
  });
}

// The same swap through enqueue(to, data, n) and dequeue(from, vector).
void swap_copy_pass(ReduceCase& c, const dash::bp::RegularSwapPartners<2>& partners) {
  dash::bp::reduce(*c.master, partners, [](Image& img, dash::bp::ReduceProxy& rp) {
    const auto& in = rp.in_link();
    if (!in.empty()) {
      if (img.received.size() < in.size()) img.received.resize(in.size());
      const std::size_t pos = std::size_t(std::find(in.begin(), in.end(), rp.gid()) - in.begin());
      std::tie(img.begin, img.end) = part(img.begin, img.end, pos, in.size());
      img.inputs.clear();
      for (int from : in) {
        if (from == rp.gid()) continue;
        std::vector<float>& piece = img.received[img.inputs.size()];
        rp.dequeue(from, piece);
        img.inputs.push_back(piece.data());
      }
      add_into(img.work.data() + img.begin, img.inputs, img.end - img.begin);
    }
    const auto& out = rp.out_link();
    for (std::size_t j = 0; j < out.size(); ++j) {
      if (out[j] == rp.gid()) continue;
      const auto [lo, hi] = part(img.begin, img.end, j, out.size());
      rp.enqueue(out[j], img.work.data() + lo, hi - lo);
    }
  });
}

// Minor page faults of the calling process so far.
long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// A pass that also counts the page faults it takes (into *faults; a system call before and
// after, negligible against a reduction of 64 KiB and more).
std::function<void()> counting_faults(std::function<void()> pass, std::vector<double>* faults) {
  return [pass = std::move(pass), faults] {
    const long before = minor_faults();
    pass();
    faults->push_back(double(minor_faults() - before));
  };
}

bool on_all_units(bool ok) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all != 0;
}

void BM_reduce_merge(benchmark::State& state) {
  const int k = int(state.range(0));
  auto c = make_case(std::size_t(state.range(1)));
  dash::bp::RegularMergePartners<2> partners(*c->decomposer, k);
  auto mpi_pass = [&] {
    MPI_Reduce(c->mpi_in.data(), c->mpi_out.data(), int(c->floats), MPI_FLOAT, MPI_SUM, 0,
               MPI_COMM_WORLD);
  };
  plan_p2p(*c, partners, true);
  restore(*c);
  merge_view_pass(*c, partners);
  const std::vector<float> viewed = c->image->work;
  restore(*c);
  merge_pass(*c, partners);
  mpi_pass();
  restore_p2p(*c);
  merge_p2p(*c);
  if (!on_all_units(c->me != 0 || (c->image->work == c->mpi_out && viewed == c->mpi_out &&
                                   c->p2p_work == c->mpi_out))) {
    state.SkipWithError("merge result differs from MPI_Reduce");
    return;
  }
  bench::run_paired(
      state, double(c->pixels), "pixel",
      bench::Side{"dash", [&] { merge_pass(*c, partners); }, [&] { restore(*c); }},
      {bench::Side{"mpi_reduce", mpi_pass, [&] { restore_mpi(*c); }},
       bench::Side{"mpi_p2p", [&] { merge_p2p(*c); }, [&] { restore_p2p(*c); }},
       bench::Side{"view_then_add", [&] { merge_view_pass(*c, partners); }, [&] { restore(*c); }}},
      [] { MPI_Barrier(MPI_COMM_WORLD); });
  state.SetLabel("dash::bp::reduce merge k=" + std::to_string(k) + " (" +
                 std::to_string(partners.rounds()) + " rounds) vs MPI_Reduce and by hand, " +
                 std::to_string(c->width) + "^2 px x 16 B");
}

void BM_reduce_swap(benchmark::State& state) {
  const int k = int(state.range(0));
  auto c = make_case(std::size_t(state.range(1)));
  dash::bp::RegularSwapPartners<2> partners(*c->decomposer, k);
  const bool equal = c->pixels % std::size_t(c->units) == 0;
  auto mpi_pass = [&] {
    if (equal)
      MPI_Reduce_scatter_block(c->mpi_in.data(), c->mpi_out.data(),
                               int(c->floats / std::size_t(c->units)), MPI_FLOAT, MPI_SUM,
                               MPI_COMM_WORLD);
    else
      MPI_Reduce_scatter(c->mpi_in.data(), c->mpi_out.data(), c->scatter_counts.data(), MPI_FLOAT,
                         MPI_SUM, MPI_COMM_WORLD);
  };
  plan_p2p(*c, partners, false);
  restore(*c);
  swap_view_pass(*c, partners);
  const std::vector<float> viewed = c->image->work;
  restore(*c);
  swap_pass(*c, partners);
  mpi_pass();
  restore_p2p(*c);
  swap_p2p(*c);
  // The swap's slices are not in unit order: compare against the full sum.
  std::vector<float> total(c->floats);
  MPI_Allreduce(c->image->input.data(), total.data(), int(c->floats), MPI_FLOAT, MPI_SUM,
                MPI_COMM_WORLD);
  const Image& img = *c->image;
  const bool ok = std::equal(img.work.begin() + long(img.begin), img.work.begin() + long(img.end),
                             total.begin() + long(img.begin)) &&
                  std::equal(viewed.begin() + long(img.begin), viewed.begin() + long(img.end),
                             total.begin() + long(img.begin)) &&
                  c->p2p_begin == img.begin && c->p2p_end == img.end &&
                  std::equal(c->p2p_work.begin() + long(img.begin),
                             c->p2p_work.begin() + long(img.end), total.begin() + long(img.begin));
  if (!on_all_units(ok)) {
    state.SkipWithError("swap result differs from the sum");
    return;
  }
  bench::run_paired(
      state, double(c->pixels), "pixel",
      bench::Side{"dash", [&] { swap_pass(*c, partners); }, [&] { restore(*c); }},
      {bench::Side{"mpi_reduce_scatter", mpi_pass, [&] { restore_mpi(*c); }},
       bench::Side{"mpi_p2p", [&] { swap_p2p(*c); }, [&] { restore_p2p(*c); }},
       bench::Side{"view_then_add", [&] { swap_view_pass(*c, partners); }, [&] { restore(*c); }}},
      [] { MPI_Barrier(MPI_COMM_WORLD); });
  state.SetLabel("dash::bp::reduce swap k=" + std::to_string(k) + " (" +
                 std::to_string(partners.rounds()) + " rounds) vs " +
                 (equal ? "MPI_Reduce_scatter_block" : "MPI_Reduce_scatter") + " and by hand, " +
                 std::to_string(c->width) + "^2 px x 16 B");
}

// The copying interface (enqueue / dequeue of vectors) against the same baselines and the
// zero-copy passes above; page_faults_per_pass counts the minor faults of unit 0's passes
// (median): queues and messages of one round reuse the last round's memory, so after the
// first pass it should be near 0.
template <class Partners, class Pass, class ZeroCopy, class Check>
void copying_bench(benchmark::State& state, ReduceCase& c, const Partners& partners, Pass copy_pass,
                   ZeroCopy zero_copy_pass, bench::Side mpi, bool merge, Check check) {
  plan_p2p(c, partners, merge);
  restore(c);
  copy_pass();
  mpi.pass();
  restore_p2p(c);
  if (merge)
    merge_p2p(c);
  else
    swap_p2p(c);
  if (!on_all_units(check())) {
    state.SkipWithError("the copying reduction's result differs from MPI's");
    return;
  }
  std::vector<double> faults, zero_copy_faults;
  faults.reserve(4096);
  zero_copy_faults.reserve(4096);
  bench::run_paired(
      state, double(c.pixels), "pixel",
      bench::Side{"copying", counting_faults(copy_pass, &faults), [&] { restore(c); }},
      {std::move(mpi),
       bench::Side{"mpi_p2p", [&] { merge ? merge_p2p(c) : swap_p2p(c); }, [&] { restore_p2p(c); }},
       bench::Side{"zero_copy", counting_faults(zero_copy_pass, &zero_copy_faults),
                   [&] { restore(c); }}},
      [] { MPI_Barrier(MPI_COMM_WORLD); });
  state.counters["page_faults_per_pass"] = bench::median(faults);
  state.counters["zero_copy_page_faults_per_pass"] = bench::median(zero_copy_faults);
}

void BM_reduce_merge_copying(benchmark::State& state) {
  const int k = int(state.range(0));
  auto c = make_case(std::size_t(state.range(1)));
  dash::bp::RegularMergePartners<2> partners(*c->decomposer, k);
  bench::Side mpi{"mpi_reduce",
                  [&] {
                    MPI_Reduce(c->mpi_in.data(), c->mpi_out.data(), int(c->floats), MPI_FLOAT,
                               MPI_SUM, 0, MPI_COMM_WORLD);
                  },
                  [&] { restore_mpi(*c); }};
  copying_bench(
      state, *c, partners, [&] { merge_copy_pass(*c, partners); },
      [&] { merge_pass(*c, partners); }, mpi, true,
      [&] { return c->me != 0 || (c->image->work == c->mpi_out && c->p2p_work == c->mpi_out); });
  state.SetLabel("dash::bp::reduce merge k=" + std::to_string(k) +
                 " through enqueue/dequeue of vectors (copying) vs MPI_Reduce, by hand and the "
                 "zero-copy interface, " +
                 std::to_string(c->width) + "^2 px x 16 B");
}

void BM_reduce_swap_copying(benchmark::State& state) {
  const int k = int(state.range(0));
  auto c = make_case(std::size_t(state.range(1)));
  dash::bp::RegularSwapPartners<2> partners(*c->decomposer, k);
  std::vector<float> total(c->floats);
  MPI_Allreduce(c->image->input.data(), total.data(), int(c->floats), MPI_FLOAT, MPI_SUM,
                MPI_COMM_WORLD);
  const bool equal = c->pixels % std::size_t(c->units) == 0;
  bench::Side mpi{"mpi_reduce_scatter",
                  [&] {
                    if (equal)
                      MPI_Reduce_scatter_block(c->mpi_in.data(), c->mpi_out.data(),
                                               int(c->floats / std::size_t(c->units)), MPI_FLOAT,
                                               MPI_SUM, MPI_COMM_WORLD);
                    else
                      MPI_Reduce_scatter(c->mpi_in.data(), c->mpi_out.data(),
                                         c->scatter_counts.data(), MPI_FLOAT, MPI_SUM,
                                         MPI_COMM_WORLD);
                  },
                  [&] { restore_mpi(*c); }};
  copying_bench(
      state, *c, partners, [&] { swap_copy_pass(*c, partners); }, [&] { swap_pass(*c, partners); },
      mpi, false,
      [&] {
        const Image& img = *c->image;
        return std::equal(img.work.begin() + long(img.begin), img.work.begin() + long(img.end),
                          total.begin() + long(img.begin));
      });
  state.SetLabel("dash::bp::reduce swap k=" + std::to_string(k) +
                 " through enqueue(to, data, n)/dequeue of vectors (copying) vs "
                 "MPI_Reduce_scatter, "
                 "by hand and the zero-copy interface, " +
                 std::to_string(c->width) + "^2 px x 16 B");
}

// Iterations: fewer for bigger images (every unit runs the same number).
[[maybe_unused]] const bool registered = [] {
  const std::pair<const char*, void (*)(benchmark::State&)> benchmarks[] = {
      {"BM_reduce_merge", BM_reduce_merge},
      {"BM_reduce_swap", BM_reduce_swap},
      {"BM_reduce_merge_copying", BM_reduce_merge_copying},
      {"BM_reduce_swap_copying", BM_reduce_swap_copying}};
  for (const auto& [name, fn] : benchmarks)
    for (long width : {256, 512, 1024})
      for (long k : {2, 4})
        benchmark::RegisterBenchmark(name, fn)
            ->ArgNames({"k", "width"})
            ->Args({k, width})
            ->Iterations(width == 1024  ? 20
                         : width == 512 ? 40
                                        : 100)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
  return true;
}();

}  // namespace
