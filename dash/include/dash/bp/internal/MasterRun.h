// Definitions of dash::bp::Master's longer members (Master.h declares them
// and says what they do and cost): foreach and its variants on the thread
// pool or under a memory-block limit, delayed calls, iexchange's loop over
// the blocks (its transport: IExchange.h), write-back, failures reported, and
// the flags read at construction. Included by Master.h; not a header of its
// own.
#ifndef DASH__BP__INTERNAL__MASTER_RUN_H_
#define DASH__BP__INTERNAL__MASTER_RUN_H_

#include <dash/bp/Master.h>

namespace dash {
namespace bp {

template <class Block>
Master<Block>::~Master() {
  // The blocks are written back while their proxies live (queues_, declared
  // after residency_, would go first).
  residency_.reset();
  if (!held_) return;
  try {
    std::fprintf(stderr,
                 "dash::bp::Master: unit %d destroyed a master holding a failure of foreach "
                 "that no exchange, iexchange or reduce reported: %s\n",
                 int(team_->myid().id), dash::internal::failure_message(held_).c_str());
  } catch (...) {  // the team is gone: say it without the unit id
    std::fprintf(stderr, "dash::bp::Master: destroyed holding an unreported failure\n");
  }
}

template <class Block>
void Master<Block>::write_back() {
  run_delayed();
  dash::internal::Failure failure;
  failure.capture(std::exchange(held_, nullptr));
  if (!failure.any()) {
    try {
      materialize_views();  // the blocks leave memory
      residency_->write_back();
    } catch (...) {
      failure.capture("writing blocks back");
    }
  }
  dash::internal::agree(failure, message_team(), "dash::bp::Master::write_back");
}

template <class Block>
template <class F, class Skip>
void Master<Block>::foreach (F&& f, Skip && skip) {
  if (held_) return;
  if (delay_depth_ > 0 && residency_->limited()) {
    delayed_.push_back(Delayed{std::function<void(Block&, Proxy&)>(std::forward<F>(f)),
                               std::function<bool(const Proxy&)>(std::forward<Skip>(skip))});
    return;
  }
  try {
    if (!residency_->limited()) {
      run_blocks(queues_.size(), [&](std::size_t i) {
        Entry& e = queues_.entry(i);
        if (!skip(static_cast<const Proxy&>(*e.proxy))) f(residency_->resident_block(i), *e.proxy);
      });
      return;
    }
    std::vector<std::size_t>& order = order_;
    order.clear();
    for (std::size_t i = 0; i < queues_.size(); ++i) {
      // skip sees the whole queues; without a skip they come back only
      // when their block runs (run_resident), one block's at a time.
      if constexpr (std::is_same_v<std::decay_t<Skip>, internal::SkipNone>) {
        order.push_back(i);
      } else {
        queues_.restore_queues(i);
        if (!skip(static_cast<const Proxy&>(*queues_.entry(i).proxy))) order.push_back(i);
      }
    }
    run_resident(
        order, [&](std::size_t i, Block& b) { f(b, *queues_.entry(i).proxy); }, writes_,
        [&](std::size_t i) { queues_.spill_outgoing(i); });
  } catch (...) {
    held_ = std::current_exception();
  }
}

template <class Block>
template <class F, class Skip>
void Master<Block>::foreach_read(F&& f, Skip&& skip) {
  run_delayed();
  writes_ = false;
  foreach ([&f](Block& b, Proxy& p) { f(static_cast<const Block&>(b), p); },
           std::forward<Skip>(skip))
    ;
  writes_ = true;
}

template <class Block>
template <class F>
void Master<Block>::foreach_shell_parts(F&& f) {
  each_shell([&f, this](std::size_t i) {
    auto read = [this, i](std::uint64_t offset, std::size_t n, char* out) {
      residency_->read_payload_part(i, offset, n, out);
    };
    f(static_cast<const Block&>(residency_->shell(i)), *queues_.entry(i).proxy, read);
    queues_.spill_outgoing(i);
  });
}

template <class Block>
void Master<Block>::report_failures() {
  run_delayed();
  dash::internal::Failure failure;
  failure.capture(std::exchange(held_, nullptr));
  dash::internal::agree(failure, message_team(), "dash::bp::Master::report_failures");
}

template <class Block>
template <class F>
void Master<Block>::iexchange(F&& f) {
  run_delayed();
  internal::IExchange& ix = iexchange_;
  ix.begin(queues_, take_held());
  ix.stop();  // a failure held from foreach
  std::vector<std::size_t>& runnable = order_;
  for (;;) {
    runnable.clear();
    for (std::size_t i = 0; !ix.stopped() && i < queues_.size(); ++i)
      if (!queues_.entry(i).done || queues_.entry(i).fresh) runnable.push_back(i);
    const bool moved = !runnable.empty();
    // Under a memory-block limit: the blocks in memory first, then those
    // with the most bytes waiting.
    if (residency_->limited()) queues_.order_runnable(runnable);
    if (threads_ <= 1) {
      for (std::size_t k = 0; k < runnable.size() && !ix.stopped(); ++k) {
        const std::size_t i = runnable[k];
        Entry& e = queues_.entry(i);
        ix.wait_for_window();
        e.fresh = false;
        ix.count_calls(1);
        try {
          Block& b = residency_->acquire(i, false);  // changed unless it says otherwise
          queues_.restore_queues(i);
          if (k + 1 < runnable.size()) residency_->prefetch(runnable[k + 1]);
          struct Release {
            internal::Residency<Block>& r;
            std::size_t i;
            ~Release() { r.release(i); }
          } release{*residency_, i};
          e.done = call_block(f, i, b, *e.proxy);
          ix.route(i);
        } catch (...) {
          ix.capture("block " + std::to_string(e.gid));
        }
        ix.stop();
        ix.post();
        ix.progress();
      }
    } else if (!runnable.empty()) {
      for (std::size_t i : runnable) queues_.entry(i).fresh = false;
      ix.count_calls(runnable.size());
      try {
        if (!residency_->limited()) {
          run_blocks(runnable.size(), [&](std::size_t k) {
            Entry& e = queues_.entry(runnable[k]);
            e.done = f(residency_->resident_block(runnable[k]), *e.proxy);
          });
          for (std::size_t i : runnable) ix.route(i);
        } else {
          // Each batch's queues go out before the next batch runs (which
          // waits for room in the send window when memory is short).
          ix.wait_for_window();
          run_resident(
              runnable,
              [&](std::size_t i, Block& b) {
                Entry& e = queues_.entry(i);
                e.done = call_block(f, i, b, *e.proxy);
              },
              false,
              [&](std::size_t i) {
                ix.route(i);
                ix.post();
                ix.wait_for_window();
              });
        }
      } catch (...) {
        ix.capture();
      }
      ix.stop();
      ix.post();
    }
    if (ix.step(moved)) break;
  }
  ix.finish();
}

template <class Block>
template <class F>
bool Master<Block>::call_block(F& f, std::size_t i, Block& b, Proxy& p) {
  bool done;
  p.take_unchanged();  // one said in another kind of call does not count here
  try {
    done = f(b, p);
  } catch (...) {
    p.take_unchanged();
    residency_->mark_changed(i);
    throw;
  }
  if (!p.take_unchanged()) residency_->mark_changed(i);
  return done;
}

template <class Block>
void Master<Block>::run_delayed() {
  if (delayed_.empty()) return;
  std::vector<Delayed> calls = std::move(delayed_);
  delayed_.clear();
  if (held_) return;
  try {
    std::vector<std::size_t>& order = order_;
    order.clear();
    for (std::size_t i = 0; i < queues_.size(); ++i) {
      queues_.restore_queues(i);
      const Proxy& p = *queues_.entry(i).proxy;
      if (std::any_of(calls.begin(), calls.end(), [&](const Delayed& c) { return !c.skip(p); }))
        order.push_back(i);
    }
    run_resident(
        order,
        [&](std::size_t i, Block& b) {
          Proxy& p = *queues_.entry(i).proxy;
          for (Delayed& c : calls)
            if (!c.skip(p)) c.f(b, p);
        },
        true, [&](std::size_t i) { queues_.spill_outgoing(i); });
  } catch (...) {
    held_ = std::current_exception();
  }
}

template <class Block>
template <class Body>
void Master<Block>::each_shell(Body&& body) {
  run_delayed();
  if (held_) return;
  try {
    for (std::size_t i = 0; i < queues_.size(); ++i) {
      queues_.restore_queues(i);
      body(i);
      // A block out of memory keeps no emptied queue memory: with a
      // limit, one block's queues at a time.
      if (residency_->limited() && !residency_->resident(i))
        queues_.entry(i).proxy->free_empty_queues();
    }
  } catch (...) {
    held_ = std::current_exception();
  }
}

template <class Block>
template <class Body, class After>
void Master<Block>::run_resident(std::vector<std::size_t>& indices, Body&& body, bool writes,
                                 After&& after) {
  std::stable_partition(indices.begin(), indices.end(),
                        [&](std::size_t i) { return residency_->resident(i); });
  const std::size_t n = indices.size();
  if (threads_ <= 1) {
    for (std::size_t k = 0; k < n; ++k) {
      Block& b = residency_->acquire(indices[k], writes);
      queues_.restore_queues(indices[k]);
      if (k + 1 < n) residency_->prefetch(indices[k + 1]);
      try {
        body(indices[k], b);
        after(indices[k]);
      } catch (...) {
        residency_->release(indices[k]);
        throw;
      }
      residency_->release(indices[k]);
    }
    return;
  }
  if (!pool_) pool_ = std::make_unique<ThreadPool>(threads_);
  const std::size_t batch = std::max<std::size_t>(1, residency_->limit());
  std::vector<Block*>& blocks = batch_blocks_;
  for (std::size_t first = 0; first < n; first += batch) {
    const std::size_t count = std::min(batch, n - first);
    blocks.resize(count);
    for (std::size_t k = 0; k < count; ++k) {
      blocks[k] = &residency_->acquire(indices[first + k], writes);
      queues_.restore_queues(indices[first + k]);
    }
    for (std::size_t k = first + count; k < std::min(n, first + count + batch); ++k)
      residency_->prefetch(indices[k]);
    auto release = [&] {
      for (std::size_t k = 0; k < count; ++k) residency_->release(indices[first + k]);
    };
    try {
      pool_->run(count, [&](std::size_t k) { body(indices[first + k], *blocks[k]); });
      for (std::size_t k = 0; k < count; ++k) after(indices[first + k]);
    } catch (...) {
      release();
      throw;
    }
    release();
  }
}

template <class Block>
void Master<Block>::limit_from_environment() {
  using dash::internal::Flag;
  const char* const who = "dash::bp::Master";
  const std::uint64_t m = dash::internal::read_flag_number(Flag::ooc_mem_blocks, who);
  queues_.set_inline_bytes(
      std::size_t(dash::internal::read_flag_number(Flag::ooc_queue_inline, who)));
  exchange_.set_sparse_above_units(
      std::size_t(dash::internal::read_flag_number(Flag::bp_exchange_sparse_units, who)));
  if (m == 0) return;
  if constexpr (is_spillable_v<Block>) {
    residency_->limit(std::size_t(m), "dash::bp::Master");
  } else {
    static std::atomic<bool> said{false};
    if (!said.exchange(true))
      std::fprintf(stderr,
                   "dash::bp::Master: DASH_OOC_MEM_BLOCKS=%llu does not apply to a master "
                   "whose block type has no default constructor or no dash::bp "
                   "serialisation; its blocks stay in memory\n",
                   static_cast<unsigned long long>(m));
  }
}

template <class Block>
template <class Body>
void Master<Block>::run_blocks(std::size_t n, Body&& body) {
  if (threads_ <= 1) {
    for (std::size_t i = 0; i < n; ++i) body(i);
    return;
  }
  if (!pool_) pool_ = std::make_unique<ThreadPool>(threads_);
  pool_->run(n, body);
}

}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__INTERNAL__MASTER_RUN_H_
