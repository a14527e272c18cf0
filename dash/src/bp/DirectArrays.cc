// dash::bp::internal::DirectArrays (DirectArrays.h): reductions' parts received when read.
#include <dash/Exception.h>
#include <dash/bp/internal/DirectArrays.h>
#include <dash/bp/internal/Wire.h>

#include <algorithm>
#include <string>

namespace dash {
namespace bp {
namespace internal {

static_assert(DirectArrays::kPieceBytes % wire::kResidues == 0,
              "every piece starts at its part's residue");

void DirectArrays::send(const char* data, std::size_t nbytes, int dest, dart_team_t team,
                        std::vector<dart_handle_t>& sends) {
  for (std::size_t at = 0; at < nbytes; at += kPieceBytes) {
    dart_handle_t handle = DART_HANDLE_NULL;
    dash::check_dart(dart_isend(data + at, std::min(kPieceBytes, nbytes - at), kTag,
                                DART_TEAM_UNIT_ID(dest), team, &handle),
                     "dart_isend");
    sends.push_back(handle);
  }
}

DirectArrays::DirectArrays(dart_team_t team) : team_(team) {}

void DirectArrays::expect(InQueue* q, int source, std::size_t nbytes, std::size_t residue) {
  if (q != nullptr) {
    q->direct = nbytes;
    q->direct_from = source;
  }
  by_source_[source].push_back(Entry{q, source, nbytes, residue});
  ++waiting_;
}

auto DirectArrays::take_entry(InQueue& q) -> Entry {
  // Only the list of q's unit: the parts before q's in it are received anyway.
  auto found = by_source_.find(q.direct_from);
  if (found == by_source_.end() || std::none_of(found->second.begin(), found->second.end(),
                                                [&](const Entry& e) { return e.q == &q; }))
    throw exception::RuntimeError("dash::bp::reduce: a queue part that was not announced");
  std::deque<Entry>& list = found->second;
  while (list.front().q != &q) {
    const Entry e = list.front();
    list.pop_front();
    --waiting_;
    receive(e);
  }
  const Entry e = list.front();
  list.pop_front();
  --waiting_;
  q.direct = 0;
  return e;
}

void DirectArrays::complete(InQueue& q) {
  if (q.direct == 0) return;
  receive(take_entry(q));
}

void DirectArrays::drop(InQueue& q) {
  if (q.direct == 0) return;
  for (auto& [source, list] : by_source_)
    for (Entry& e : list)
      if (e.q == &q) e.q = nullptr;
  q.direct = 0;
}

bool DirectArrays::complete_one() {
  for (auto& [source, list] : by_source_) {
    if (list.empty()) continue;
    const Entry e = list.front();
    list.pop_front();
    --waiting_;
    receive(e);
    return true;
  }
  return false;
}

void DirectArrays::drop_all() {
  for (auto& [source, list] : by_source_)
    for (Entry& e : list)
      if (e.q != nullptr) {
        e.q->direct = 0;
        e.q = nullptr;
      }
  while (complete_one()) {
  }
}

char* DirectArrays::piece_at(const Entry& e) {
  if (piece_.empty()) piece_.resize((kPieceBytes + wire::kResidues) / sizeof(std::max_align_t) + 1);
  return reinterpret_cast<char*>(piece_.data()) + e.residue % wire::kResidues;
}

std::size_t DirectArrays::match_piece(const Entry& e, std::size_t done, dart_message_t& message) {
  const std::size_t want = std::min(kPieceBytes, e.nbytes - done);
  dart_team_unit_t from;
  std::size_t nbytes = 0;
  dash::check_dart(dart_mprobe(kTag, DART_TEAM_UNIT_ID(e.source), team_, &message, &from, &nbytes),
                   "dart_mprobe");
  if (nbytes != want) {
    odd_.resize(nbytes);
    dash::check_dart(dart_mrecv(odd_.data(), nbytes, &message), "dart_mrecv");
    throw exception::RuntimeError("dash::bp::reduce: a malformed message from unit " +
                                  std::to_string(e.source));
  }
  return nbytes;
}

std::size_t DirectArrays::receive_piece(const Entry& e, std::size_t i) {
  dart_message_t message;
  const std::size_t n = match_piece(e, i * kPieceBytes, message);
  started_ = i + 1;
  dash::check_dart(dart_mrecv(piece_at(e), n, &message), "dart_mrecv");
  return n;
}

void DirectArrays::skip_rest(const Entry& e) noexcept {
  try {
    for (std::size_t done = started_ * kPieceBytes; done < e.nbytes; done += kPieceBytes) {
      dart_message_t message;
      const std::size_t n = match_piece(e, done, message);
      dash::check_dart(dart_mrecv(piece_at(e), n, &message), "dart_mrecv");
    }
  } catch (...) {  // a malformed piece: the error that brought us here is reported
  }
  started_ = 0;
}

void DirectArrays::receive(const Entry& e) {
  if (e.q == nullptr) {
    for (std::size_t done = 0; done < e.nbytes; done += kPieceBytes) {
      dart_message_t message;
      const std::size_t n = match_piece(e, done, message);
      dash::check_dart(dart_mrecv(piece_at(e), n, &message), "dart_mrecv");
    }
    return;
  }
  e.q->direct = 0;
  char* to = e.q->bytes.extend_at_residue(e.nbytes, e.residue, wire::kResidues);
  receives_.clear();
  // The sender sent the pieces together: all are matched and started before any is waited for.
  struct Wait {  // after an error: the pieces started
    std::vector<dart_handle_t>& handles;
    ~Wait() { dart_waitall(handles.data(), handles.size()); }
  } wait{receives_};
  for (std::size_t done = 0; done < e.nbytes; done += kPieceBytes) {
    dart_message_t message;
    const std::size_t n = match_piece(e, done, message);
    receives_.emplace_back(DART_HANDLE_NULL);
    dash::check_dart(dart_imrecv(to + done, n, &message, &receives_.back()), "dart_imrecv");
  }
  dash::check_dart(dart_waitall(receives_.data(), receives_.size()), "dart_waitall");
}

}  // namespace internal
}  // namespace bp
}  // namespace dash
