// dash::bp::save and dash::bp::load: every block of a Master, with its
// links and its queues, in one file written collectively (checkpoint), and
// read back into a master of the same block count on any number of units
// (restart).
//
//   dash::bp::save(master, "/scratch/run.ckpt");       // collective
//   ...
//   dash::bp::Master<Cell> again(nblocks);             // any unit count
//   dash::bp::load(again, "/scratch/run.ckpt");        // adds its blocks
//
// save:  in rounds, each unit serialises its next blocks (up to
//        `round_bytes`, at least one) as records: the links, the block
//        (dash::bp::Serialization, as queues and the spill store use) and
//        the unread bytes of its incoming and outgoing queues; the units'
//        record sizes are all-gathered, so each writes its records at its
//        offset with one collective MPI-IO write (dart_file_write_at_all);
//        last, the index (gid, offset, bytes, checksum per block) and a
//        header go in, the file is synced and renamed over `path` (it is
//        written as "<path>.tmp": a file already at path stays whole until
//        the new one replaces it)
// load:  every unit checks the header and the index; each reads the records
//        of the blocks the master's owner function gives it (independent
//        reads) and checks their checksums; only when every unit found its
//        records whole are the blocks added (nothing is loaded otherwise).
//        A master with a memory-block limit reads its records twice (check,
//        then add, so its blocks need not all be in memory at once)
//
// Errors throw on every unit (the failing unit its own exception, the
// others dash::exception::RemoteFailure): a path that cannot be written
// (RuntimeError; nothing replaced), a block that fails to serialise, a
// missing, truncated or damaged file or record (RuntimeError naming the
// path and the block), a file of another block count or a master that
// already holds blocks (InvalidArgument).
//
// | call | cost                                                             |
// |------|------------------------------------------------------------------|
// | save | collective over master.team(): per round of `round_bytes` one    |
// |      | allgather of sizes, one collective write, two int allreduces;    |
// |      | then an allreduce of the index, a sync and a rename              |
// | load | collective: every unit reads the header and the index; each its  |
// |      | own records (independent reads); one int allreduce               |
#ifndef DASH__BP__SAVE_LOAD_H_
#define DASH__BP__SAVE_LOAD_H_

#include <dash/Exception.h>
#include <dash/bp/Master.h>
#include <dash/bp/Serialization.h>
#include <dash/bp/detail/SavedFile.h>
#include <dash/internal/Failure.h>

#include <cstddef>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {
namespace bp {

// Writes every block of `master` (with its links and queues) to `path`.
// Collective over master.team(); see the top of this file.
template <class Block>
void save(Master<Block>& master, const std::string& path,
          std::size_t round_bytes = std::size_t(64) << 20) {
  static_assert(std::is_default_constructible_v<Block>,
                "dash::bp::save: load needs a default-constructible block type");
  const dart_team_t team = master.team().dart_id();
  master.report_failures();
  detail::SavedFileWriter writer(path, team, master.nblocks());
  MemoryBuffer batch;
  std::vector<detail::SavedRecord> records;
  std::size_t next = 0;
  for (;;) {
    batch.clear();
    records.clear();
    dash::internal::Failure failure;
    try {
      while (next < master.size() && (records.empty() || batch.size() < round_bytes)) {
        const std::size_t start = batch.size();
        const Block& block = master.block(next);
        Proxy& proxy = master.proxy(next);
        dash::bp::save(batch, proxy.link());
        Serialization<Block>::save(batch, block);
        proxy.save_queues(batch);
        const std::size_t n = batch.size() - start;
        records.push_back(detail::SavedRecord{std::uint64_t(master.gid(next)), 0, n,
                                              detail::saved_checksum(batch.data() + start, n)});
        ++next;
      }
    } catch (...) {
      failure.capture("block " + std::to_string(master.gid(next)));
    }
    dash::internal::agree(failure, team, "dash::bp::save");
    if (!writer.write_round(batch.data(), records)) break;
  }
  writer.finish();
}

// Adds to `master` (which holds no blocks yet) the blocks that its owner
// function gives the calling unit, as `path` holds them, with their links
// and queues. Collective over master.team(); see the top of this file.
template <class Block>
void load(Master<Block>& master, const std::string& path) {
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
    dash::internal::agree(failure, team, "dash::bp::load");
  }
  detail::SavedFileReader reader(path, team, master.nblocks());
  std::vector<int> mine;
  for (int gid = 0; gid < master.nblocks(); ++gid)
    if (master.owner(gid) == me) mine.push_back(gid);

  // One record: its links, the block, its queues.
  struct Loaded {
    int gid;
    std::vector<int> link;
    std::unique_ptr<Block> block;
    MemoryBuffer queues;
  };
  MemoryBuffer buf;  // one record at a time
  auto unpack = [&](int gid) {
    reader.read(gid, buf);
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

  const bool hold = master.limit() == 0;  // else: check first, then read again
  std::vector<Loaded> held;
  dash::internal::Failure failure;
  for (int gid : mine) {
    try {
      if (hold)
        held.push_back(unpack(gid));
      else
        reader.read(gid, buf);
    } catch (...) {
      failure.capture("block " + std::to_string(gid));
      break;
    }
  }
  dash::internal::agree(failure, team, "dash::bp::load");
  if (hold) {
    for (Loaded& l : held) add(l);
    return;
  }
  dash::internal::Failure late;  // checked already: not expected, but agreed
  for (int gid : mine) {
    try {
      Loaded l = unpack(gid);
      add(l);
    } catch (...) {
      late.capture("block " + std::to_string(gid));
      break;
    }
  }
  dash::internal::agree(late, team, "dash::bp::load");
}

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__SAVE_LOAD_H_
