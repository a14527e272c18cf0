// dash::bp::internal::BlockQueues (BlockQueues.h): the registry and the queues.
#include <dash/Exception.h>
#include <dash/bp/internal/BlockQueues.h>

#include <algorithm>
#include <string>
#include <utility>

namespace dash {
namespace bp {
namespace internal {

BlockQueues::BlockQueues(Team& team, int nblocks, owner_function owner, QueueResidency& residency)
    : team_(&team),
      nblocks_(nblocks),
      me_(int(team.myid().id)),
      owner_(std::move(owner)),
      residency_(&residency) {}

Proxy& BlockQueues::add(int gid, std::vector<int> link) {
  if (gid < 0 || gid >= nblocks_)
    throw exception::InvalidArgument("dash::bp::Master::add: gid " + std::to_string(gid) +
                                     " outside [0, " + std::to_string(nblocks_) + ")");
  if (owner_(gid) != me_)
    throw exception::InvalidArgument("dash::bp::Master::add: block " + std::to_string(gid) +
                                     " belongs to unit " + std::to_string(owner_(gid)));
  if (index_.count(gid) != 0)
    throw exception::InvalidArgument("dash::bp::Master::add: block " + std::to_string(gid) +
                                     " added twice");
  auto entry = std::make_unique<Entry>();
  entry->gid = gid;
  entry->link = std::move(link);
  entry->proxy = std::make_unique<Proxy>(gid, &entry->link, nblocks_);
  index_[gid] = entries_.size();
  entries_.push_back(std::move(entry));
  return *entries_.back()->proxy;
}

void BlockQueues::set_link(std::size_t i, std::vector<int> link) {
  for (int to : link)
    if (to < 0 || to >= nblocks_)
      throw exception::InvalidArgument("dash::bp::Master::set_link: gid " + std::to_string(to) +
                                       " outside [0, " + std::to_string(nblocks_) + ")");
  entries_.at(i)->link = std::move(link);
}

std::size_t BlockQueues::index_of(int gid, const char* call) const {
  auto it = index_.find(gid);
  if (it == index_.end())
    throw exception::InvalidArgument(std::string("dash::bp::Master::") + call + ": block " +
                                     std::to_string(gid) + " is not on unit " +
                                     std::to_string(me_));
  return it->second;
}

void BlockQueues::deliver(int from, int to, MemoryBuffer& buf, const char* call) {
  Entry& target = *entries_[index_of(to, call)];
  MemoryBuffer& in = target.proxy->incoming_queue(from);
  if (in.remaining() == 0) {
    std::swap(in, buf);
    in.rewind();
  } else {
    in.write(buf.data(), buf.size());
  }
  target.fresh = true;
}

void BlockQueues::deliver(int from, int to, const char* data, std::size_t n, const char* call) {
  Entry& target = *entries_[index_of(to, call)];
  MemoryBuffer& in = target.proxy->incoming_queue(from);
  if (in.remaining() == 0) in.clear();
  in.write(data, n);
  target.fresh = true;
}

void BlockQueues::deliver_and_spill(int from, int to, const char* data, std::size_t n,
                                    const char* call) {
  deliver(from, to, data, n, call);
  if (memory_short()) spill_incoming(index_.at(to));
}

void BlockQueues::check_targets(dash::internal::Failure& failure, const char* call) {
  auto out_of_range = [&](int from, int to) {
    failure.capture(std::make_exception_ptr(exception::InvalidArgument(
        std::string("dash::bp::Master::") + call + ": block " + std::to_string(from) + " of unit " +
        std::to_string(me_) + " enqueued to gid " + std::to_string(to) + ", outside [0, " +
        std::to_string(nblocks_) + ")")));
  };
  for (const auto& part : spilled_.outgoing())
    if ((part.to < 0 || part.to >= nblocks_) && !failure.any()) out_of_range(part.from, part.to);
  for (auto& e : entries_)
    e->proxy->for_each_outgoing([&](int to, OutQueue&) {
      if ((to >= 0 && to < nblocks_) || failure.any()) return;
      out_of_range(e->gid, to);
    });
}

void BlockQueues::drop_queues() {
  clear_incoming();
  if (!spilled_.outgoing().empty()) spilled_.drop_outgoing(residency_->extra_store());
  clear_outgoing();
}

void BlockQueues::clear_incoming() {
  drop_spilled_incoming();
  for (auto& e : entries_) e->proxy->clear_incoming();
}

void BlockQueues::clear_outgoing() {
  for (auto& e : entries_) e->proxy->clear_outgoing();
}

void BlockQueues::materialize_views() {
  for (auto& e : entries_) e->proxy->materialize_views();
}

void BlockQueues::spill_incoming(std::size_t i) {
  if (!residency_->limited() || residency_->resident(i)) return;
  spilled_.spill_incoming(residency_->extra_store(), i, *entries_[i]->proxy, inline_bytes_);
}

void BlockQueues::spill_all_incoming() {
  if (!residency_->limited()) return;
  for (std::size_t i = 0; i < entries_.size(); ++i) spill_incoming(i);
}

void BlockQueues::restore_queues(std::size_t i) {
  if (spilled_.has_incoming(i))
    spilled_.restore_incoming(residency_->extra_store(), i, *entries_[i]->proxy);
}

void BlockQueues::drop_spilled_incoming() {
  if (spilled_.has_incoming(SpilledQueues::npos)) spilled_.drop_incoming(residency_->extra_store());
}

void BlockQueues::spill_outgoing(std::size_t i) {
  Entry& e = *entries_[i];
  e.proxy->materialize_views();  // the block may leave memory
  if (!memory_short()) return;
  e.proxy->for_each_outgoing([&](int to, OutQueue& queue) {
    if (queue.bytes.size() >= std::max<std::size_t>(inline_bytes_, 1))
      spilled_.add_outgoing(residency_->extra_store(), e.gid, to, queue.bytes);
  });
}

void BlockQueues::complete_outgoing_parts() {
  if (spilled_.outgoing().empty()) return;
  std::vector<std::pair<int, int>> pairs;
  for (const auto& part : spilled_.outgoing()) pairs.emplace_back(part.from, part.to);
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  for (const auto& [from, to] : pairs) {
    MemoryBuffer& queue = entries_[index_.at(from)]->proxy->outgoing_queue(to);
    if (queue.size() > 0) spilled_.add_outgoing(residency_->extra_store(), from, to, queue);
  }
}

void BlockQueues::order_runnable(std::vector<std::size_t>& runnable) {
  auto evicted = std::stable_partition(runnable.begin(), runnable.end(),
                                       [&](std::size_t i) { return residency_->resident(i); });
  auto waiting = [&](std::size_t i) {
    return entries_[i]->proxy->incoming_bytes() + spilled_.incoming_bytes(i);
  };
  std::stable_sort(evicted, runnable.end(),
                   [&](std::size_t a, std::size_t b) { return waiting(a) > waiting(b); });
}

}  // namespace internal
}  // namespace bp
}  // namespace dash
