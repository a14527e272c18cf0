// dash::bp::internal::IExchange (IExchange.h): the transport and termination of
// Master::iexchange().
#include <dash/Exception.h>
#include <dash/bp/internal/IExchange.h>
#include <dash/bp/internal/Wire.h>
#include <dash/internal/Flags.h>

#include <algorithm>
#include <string>
#include <utility>

namespace dash {
namespace bp {
namespace internal {

namespace {
constexpr int kTagEven = 30001;  // even calls on a team
constexpr int kTagOdd = 30004;   // odd calls
constexpr const char* kCall = "dash::bp::Master::iexchange";
// When memory is short, messages being sent hold at most about twice the
// largest block stored, and at least this.
constexpr std::size_t kMinSendWindow = std::size_t(4) << 20;
// A completed message's buffer up to this size is kept for the next one to
// its unit (no allocation per message); larger ones are freed.
constexpr std::size_t kKeptBufferBytes = std::size_t(64) << 10;

// The test flags DASH_BP_TEST_SEND_DELAY_US (each message to another unit
// is held back for a random 0..max microseconds) and DASH_BP_TEST_SEED.
std::uint64_t test_flag(dash::internal::Flag f) {
  return dash::internal::read_flag_number(f, kCall);
}
}  // namespace

void IExchange::begin(BlockQueues& q, std::exception_ptr held) {
  q_ = &q;
  const int me = q.me();
  delay_max_us_ = long(test_flag(dash::internal::Flag::bp_test_send_delay_us));
  random_.seed(test_flag(dash::internal::Flag::bp_test_seed) * 1000003u + std::uint64_t(me));
  // Consecutive calls on a team, of this master or another, use two tags in
  // turn: a unit that has seen the end of this call may already send for the
  // next one while another unit still polls for this one, which must not
  // receive those messages (no unit can finish the next call before every
  // unit has finished this one).
  tag_ = count_tagged_call(q.team()) % 2 == 0 ? kTagEven : kTagOdd;
  const std::size_t units = q.team().size();
  if (pack_of_unit_.size() != units) {
    pack_of_unit_.assign(units, -1);
    packs_.clear();
  }
  for (Pack& p : packs_) p.buf.clear();  // nothing of an aborted call stays
  filled_.clear();
  outbound_.clear();
  outbound_bytes_ = 0;
  peak_sending_bytes_ = 0;
  stats_ = Stats{};
  if (!call_) call_ = std::make_unique<Call>();
  call_->termination = Termination{};
  call_->collectives.reset();
  call_->collectives.emplace(q.message_team());
  call_->idle.reset();
  call_->idle.emplace(kCall, q.message_team());
  failure_ = dash::internal::Failure{};
  failure_.capture(std::move(held));
  stopped_ = false;
  for (std::size_t i = 0; i < q.size(); ++i) {
    q.entry(i).done = false;
    q.entry(i).fresh = true;  // every block runs at least once
  }
}

MemoryBuffer& IExchange::pack_for(int unit) {
  int& slot = pack_of_unit_[std::size_t(unit)];
  if (slot < 0) {
    slot = int(packs_.size());
    packs_.push_back(Pack{unit, MemoryBuffer()});
  }
  MemoryBuffer& buf = packs_[std::size_t(slot)].buf;
  if (buf.size() == 0) filled_.push_back(std::size_t(slot));
  return buf;
}

void IExchange::route(std::size_t i) {
  BlockQueues& q = *q_;
  const int me = q.me();
  BlockQueues::Entry& e = q.entry(i);
  e.proxy->drain_outgoing([&](int to, OutQueue& queue) {
    if (to < 0 || to >= q.nblocks())
      throw exception::InvalidArgument(std::string(kCall) + ": block " + std::to_string(e.gid) +
                                       " enqueued to gid " + std::to_string(to) + ", outside [0, " +
                                       std::to_string(q.nblocks()) + ")");
    const int dest = q.owner(to);
    if (dest == me) {
      q.deliver(e.gid, to, queue.bytes, "iexchange");
      if (queue.view_bytes > 0) q.deliver(e.gid, to, queue.view, queue.view_bytes, "iexchange");
      if (q.memory_short()) q.spill_incoming(q.index_of(to, "iexchange"));
    } else {
      wire::pack_queue(pack_for(dest), e.gid, to, parts_of(queue));
    }
  });
}

void IExchange::post() {
  if (filled_.empty()) return;
  const auto now = std::chrono::steady_clock::now();
  stats_.buffers_visited += filled_.size();
  for (std::size_t slot : filled_) {
    Pack& p = packs_[slot];
    Outbound out{p.unit, std::move(p.buf.bytes()), DART_HANDLE_NULL, now};
    p.buf.clear();
    outbound_bytes_ += out.bytes.size();
    peak_sending_bytes_ = std::max(peak_sending_bytes_, outbound_bytes_);
    if (delay_max_us_ > 0)
      out.release +=
          std::chrono::microseconds(std::uniform_int_distribution<long>(0, delay_max_us_)(random_));
    outbound_.push_back(std::move(out));
  }
  filled_.clear();
}

void IExchange::stop() {
  if (stopped_ || !failure_.any()) return;
  BlockQueues& q = *q_;
  stopped_ = true;
  for (std::size_t i = 0; i < q.size(); ++i) {
    q.entry(i).done = true;
    q.entry(i).fresh = false;
  }
  q.drop_queues();
  if (!failure_.own()) return;
  // A notice: a {kFailureNotice, unit, nbytes} header and the text, to every
  // other unit. Messages already packed still go (their receivers drop them).
  const std::string text = failure_.own_message();
  for (std::size_t u = 0; u < q.team().size(); ++u)
    if (int(u) != q.me())
      wire::write_record(pack_for(int(u)), wire::kFailureNotice, q.me(), text.data(), text.size());
  post();
}

// A received message: failure notices are recorded, queues delivered (or
// dropped once stopped).
void IExchange::take(const char* data, std::size_t total) {
  try {
    wire::for_each_record(data, total, [&](const wire::Header& h, const char* bytes) {
      const std::size_t n = h.n > 0 ? std::size_t(h.n) : 0;
      if (h.from == wire::kFailureNotice) {
        failure_.remote(int(h.to), std::string(bytes, n));
      } else if (!stopped_) {
        try {
          q_->deliver_and_spill(int(h.from), int(h.to), bytes, n, "iexchange");
        } catch (...) {
          failure_.capture();
        }
      }
    });
  } catch (...) {  // a malformed message
    failure_.capture();
  }
}

bool IExchange::progress() {
  BlockQueues& q = *q_;
  bool moved = false;
  const auto now = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < outbound_.size();) {
    Outbound& out = outbound_[i];
    if (out.handle == DART_HANDLE_NULL) {
      if (out.release > now) {
        ++i;
        continue;
      }
      dash::check_dart(dart_issend(out.bytes.data(), out.bytes.size(), tag_,
                                   DART_TEAM_UNIT_ID(out.unit), q.message_team(), &out.handle),
                       "dart_issend");
      ++stats_.messages;
      stats_.bytes += out.bytes.size();
      moved = true;
    }
    std::int32_t done = 0;
    dash::check_dart(dart_test(&out.handle, &done), "dart_test");
    if (!done) {
      ++i;
      continue;
    }
    outbound_bytes_ -= out.bytes.size();
    // A small buffer goes back to its unit's pack for the next message.
    MemoryBuffer& pack = packs_[std::size_t(pack_of_unit_[std::size_t(out.unit)])].buf;
    if (pack.size() == 0 && pack.bytes().capacity() == 0 &&
        out.bytes.capacity() <= kKeptBufferBytes) {
      pack.bytes() = std::move(out.bytes);
      pack.clear();
    }
    outbound_[i] = std::move(outbound_.back());
    outbound_.pop_back();
    moved = true;
  }
  for (;;) {
    std::int32_t found = 0;
    dart_message_t message;
    dart_team_unit_t from;
    std::size_t nbytes = 0;
    dash::check_dart(dart_improbe(tag_, DART_UNDEFINED_TEAM_UNIT_ID, q.message_team(), &found,
                                  &message, &from, &nbytes),
                     "dart_improbe");
    if (!found) break;
    received_.resize(nbytes + 1);
    dash::check_dart(dart_mrecv(received_.data(), nbytes, &message), "dart_mrecv");
    take(received_.data(), nbytes);
    call_->termination.received();
    moved = true;
  }
  stop();
  return moved;
}

std::size_t IExchange::send_window() const {
  return std::max(kMinSendWindow, 2 * q_->residency().largest_stored());
}

void IExchange::wait_for_window() {
  if (!q_->memory_short()) return;
  const std::size_t window = send_window();
  while (!stopped_ && outbound_bytes_ > window) call_->idle->after_poll(progress());
}

bool IExchange::step(bool moved) {
  moved = progress() || moved;
  bool idle_here = outbound_.empty();
  for (std::size_t i = 0; idle_here && i < q_->size(); ++i)
    idle_here = q_->entry(i).done && !q_->entry(i).fresh;
  const auto before = call_->termination.state();
  if (call_->termination.step(idle_here, *call_->collectives, failure_.any())) return true;
  // Nothing to do, more units than cores: leave the core to the units (or
  // threads) that have work.
  call_->idle->after_poll(moved || call_->termination.state() != before);
  return false;
}

void IExchange::finish() {
  if (!failure_.any() && call_->termination.failed())  // cannot happen: notices precede the bit
    throw exception::RuntimeError(std::string(kCall) + ": another unit failed");
  failure_.raise(kCall);
}

}  // namespace internal
}  // namespace bp
}  // namespace dash
