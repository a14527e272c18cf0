// dash::bp::save and dash::bp::load: every block of a Master, with its
// links and its queues, in one file written collectively (checkpoint), and
// read back into a master of the same block count on any number of units
// (restart). They belong to the I/O layer: the file is a container file of
// dash::io (dash/io/Save.h) written by its two-phase engine, with its
// aggregators, memory tiers, chunk checksums and subfiling (DASH_IO_*
// flags; the burst buffer is not used for block files).
//
//   dash::bp::save(master, "/scratch/run.ckpt");       // collective
//   ...
//   dash::bp::Master<Cell> again(nblocks);             // any unit count
//   dash::bp::load(again, "/scratch/run.ckpt");        // adds its blocks
//
// save:  each unit serialises its blocks as records (the links, the block
//        by dash::bp::Serialization, as queues and the spill store use it,
//        and the unread bytes of its incoming and outgoing queues) in
//        batches of `round_bytes` (at least one record): the first batch
//        is kept, the later ones are serialised to learn their sizes and
//        again when their round comes, so a unit holds one batch at a time.
//        Every round writes every unit's batch through the engine; then the
//        chunk checksums and the header go in, the file is synced and
//        renamed over `path` (a file already at path stays whole until the
//        new one replaces it). Layout: dash/io/internal/BlockFile.h.
// load:  unit 0 reads the index (checked) for every unit; each reads the
//        records of the blocks the master's owner function gives it, in
//        batches of `round_bytes`, with independent reads, and checks each
//        against its checksum; only when every unit found its
//        records whole are the blocks added (nothing is loaded otherwise). A
//        master with a memory-block limit reads its records twice (check,
//        then add, so its blocks need not all be in memory at once). Files
//        of the earlier format ("DASHBP01") load as well.
//
// Errors throw on every unit (the failing unit its own exception, the
// others dash::exception::RemoteFailure): a path that cannot be written
// (RuntimeError; nothing replaced), a block that fails to serialise, a
// missing, truncated or damaged file (RuntimeError naming the path), a file
// of another block count or a master that already holds blocks
// (InvalidArgument).
//
// | call | cost                                                             |
// |------|------------------------------------------------------------------|
// | save | collective over master.team(): an allreduce and an allgather of  |
// |      | batch sizes; per round the engine's rounds (one-sided puts into  |
// |      | the aggregators' buffers) and an agreement; a reduce of the      |
// |      | checksums, a sync and a rename                                   |
// | load | collective: unit 0 reads the header and the index, broadcasts;   |
// |      | per batch independent reads of the unit's records, an agreement |
#ifndef DASH__IO__SAVE_BLOCKS_H_
#define DASH__IO__SAVE_BLOCKS_H_

#include <dash/Exception.h>
#include <dash/bp/Master.h>
#include <dash/bp/Serialization.h>
#include <dash/internal/Failure.h>
#include <dash/io/internal/BlockFile.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

namespace internal {

// Appends block i's record (links, block, queues) to `into`. Local.
template <class Block>
void save_record(Master<Block>& master, std::size_t i, MemoryBuffer& into) {
  Proxy& proxy = master.proxy(i);
  dash::bp::save(into, proxy.link());
  Serialization<Block>::save(into, master.block(i));
  proxy.save_queues(into);
}

}  // namespace internal

// Writes every block of `master` (with its links and queues) to `path`.
// Collective over master.team(); see the top of this file.
template <class Block>
void save(Master<Block>& master, const std::string& path,
          std::size_t round_bytes = std::size_t(64) << 20) {
  static_assert(std::is_default_constructible_v<Block>,
                "dash::bp::save: load needs a default-constructible block type");
  const char* const who = "dash::bp::save";
  const dart_team_t team = master.team().dart_id();
  master.report_failures();
  // The first batch kept; the later ones only sized.
  MemoryBuffer first, scratch;
  std::vector<std::uint64_t> gids, sizes, sums;
  std::size_t kept = 0;
  {
    dash::internal::Failure failure;
    std::size_t i = 0;
    try {
      for (; i < master.size(); ++i) {
        const bool keep = kept == i && (i == 0 || first.size() < round_bytes);
        MemoryBuffer& into = keep ? first : scratch;
        if (!keep) scratch.clear();
        const std::size_t start = into.size();
        internal::save_record(master, i, into);
        gids.push_back(std::uint64_t(master.gid(i)));
        sizes.push_back(into.size() - start);
        sums.push_back(io::internal::record_checksum(into.data() + start, sizes.back()));
        if (keep) ++kept;
      }
    } catch (...) {
      failure.capture("block " + std::to_string(master.gid(i)));
    }
    dash::internal::agree(failure, team, who);
  }
  scratch = MemoryBuffer();
  io::internal::BlockFileWriter writer(path, master.team(), master.nblocks(), gids, sizes, sums,
                                       io::internal::batch_cuts(sizes, round_bytes), who);
  MemoryBuffer batch;
  for (int r = 0; r < writer.rounds(); ++r) {
    dash::internal::Failure failure;
    MemoryBuffer* bytes = &first;
    if (r > 0) {
      first = MemoryBuffer();
      batch.clear();
      bytes = &batch;
      const auto [begin, end] = writer.records_of(r);
      std::size_t i = begin;
      try {
        for (; i < end; ++i) internal::save_record(master, i, batch);
      } catch (...) {
        failure.capture("block " + std::to_string(master.gid(i)));
      }
    }
    writer.write_round(r, bytes->data(), bytes->size(), failure);
  }
  writer.commit();
}

// Adds to `master` (which holds no blocks yet) the blocks that its owner
// function gives the calling unit, as `path` holds them, with their links
// and queues. Collective over master.team(); see the top of this file.
template <class Block>
void load(Master<Block>& master, const std::string& path,
          std::size_t round_bytes = std::size_t(64) << 20) {
  const char* const who = "dash::bp::load";
  const dart_team_t team = master.team().dart_id();
  const int me = int(master.team().myid().id);
  {
    dash::internal::Failure failure;
    if (master.size() != 0) {
      try {
        throw exception::InvalidArgument("dash::bp::load: the master holds " +
                                         std::to_string(master.size()) +
                                         " blocks already; load adds blocks to an empty one");
      } catch (...) {
        failure.capture();
      }
    }
    dash::internal::agree(failure, team, who);
  }
  io::internal::BlockFileReader reader(path, master.team(), master.nblocks(), who);
  std::vector<int> mine;
  for (int gid = 0; gid < master.nblocks(); ++gid)
    if (master.owner(gid) == me) mine.push_back(gid);
  int rounds = 0;
  const std::vector<std::size_t> cuts = reader.batches(mine, round_bytes, rounds);
  auto batch = [&](int r) {
    const std::size_t b = std::size_t(r);
    return b + 1 < cuts.size() ? std::vector<int>(mine.begin() + std::ptrdiff_t(cuts[b]),
                                                  mine.begin() + std::ptrdiff_t(cuts[b + 1]))
                               : std::vector<int>();
  };

  // One record: its links, the block, its queues.
  struct Loaded {
    int gid;
    std::vector<int> link;
    std::unique_ptr<Block> block;
    MemoryBuffer queues;
  };
  std::vector<MemoryBuffer> records;
  auto unpack = [&](int gid, MemoryBuffer& buf) {
    Loaded l{gid, {}, std::make_unique<Block>(), MemoryBuffer()};
    dash::bp::load(buf, l.link);
    Serialization<Block>::load(buf, *l.block);
    l.queues.write(buf.data() + buf.position(), buf.remaining());
    return l;
  };
  auto add = [&](Loaded& l) {
    master.add(l.gid, std::move(l.block), std::move(l.link));
    master.proxy(master.size() - 1).load_queues(l.queues);
  };

  // Without a memory-block limit every block is unpacked and held until all
  // units have theirs; with one, the records are read once to check them and
  // again to add them.
  const bool hold = master.limit() == 0;
  std::vector<Loaded> held;
  for (int r = 0; r < rounds; ++r) {
    const std::vector<int> gids = batch(r);
    reader.read(gids, records);
    if (!hold) continue;
    dash::internal::Failure failure;
    std::size_t k = 0;
    try {
      for (; k < gids.size(); ++k) held.push_back(unpack(gids[k], records[k]));
    } catch (...) {
      failure.capture("block " + std::to_string(gids[k]));
    }
    dash::internal::agree(failure, team, who);
  }
  if (hold) {
    for (Loaded& l : held) add(l);
    return;
  }
  for (int r = 0; r < rounds; ++r) {
    const std::vector<int> gids = batch(r);
    reader.read(gids, records);
    dash::internal::Failure late;  // checked already: not expected, but agreed
    std::size_t k = 0;
    try {
      for (; k < gids.size(); ++k) {
        Loaded l = unpack(gids[k], records[k]);
        add(l);
      }
    } catch (...) {
      late.capture("block " + std::to_string(gids[k]));
    }
    dash::internal::agree(late, team, who);
  }
}

}  // namespace bp
}  // namespace dash

#endif  // DASH__IO__SAVE_BLOCKS_H_
