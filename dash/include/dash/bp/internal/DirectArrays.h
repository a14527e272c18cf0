// dash::bp::internal::DirectArrays: the parts of a reduction's queues that travel as messages of
// their own (enqueue_view arrays and queues of wire::kDirectBytes or more), received when the
// receiving block reads them instead of in the exchange. Not public; ReduceRun uses it.
//
// A part goes in pieces of kPieceBytes, each a message with tag kTag sent from the sender's
// memory; a unit's parts to another unit leave in record order and are received in that
// order. A unit that sent anything in a round receives its parts at the end of the exchange,
// while its own sends complete (two units sending each other parts wait for no one, and no
// sender waits for another unit's calls). On a unit that only receives (a merge's roots) the
// parts wait here, per source unit, for the blocks' calls: dequeue, dequeue_view and incoming
// receive a part whole into its queue (with the parts from the same unit before it),
// dequeue_combine receives it piece by piece into one piece-sized buffer and combines each
// piece while it is in cache (a merge of large images: one pass over memory fewer than
// receive-then-add); what the calls do not read is received and dropped after them. Under a
// memory-block limit parts are received as they are announced.
#ifndef DASH__BP__INTERNAL__DIRECT_ARRAYS_H_
#define DASH__BP__INTERNAL__DIRECT_ARRAYS_H_

#include <dart/dart.h>
#include <dash/bp/Serialization.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <vector>

namespace dash {
namespace bp {
namespace internal {

// An incoming queue of a reduction: its bytes; `direct` bytes more still to come from another
// unit (DirectArrays); or, under a memory-block limit, its bytes in the master's store under
// `key` until the block's call.
struct InQueue {
  MemoryBuffer bytes;
  std::size_t direct = 0;
  int direct_from = -1;  // the unit its part comes from (while direct > 0)
  bool spilled = false;
  std::uint64_t key = 0;
};

class DirectArrays {
 public:
  static constexpr int kTag = 30000;
  static constexpr std::size_t kPieceBytes = std::size_t(256) << 10;

  // Starts sending the nbytes at data to unit `dest` in pieces (handles appended to `sends`;
  // data must stay valid until they complete). Local.
  static void send(const char* data, std::size_t nbytes, int dest, dart_team_t team,
                   std::vector<dart_handle_t>& sends);

  explicit DirectArrays(dart_team_t team);

  // q's part of nbytes from unit `source` is on its way, to be received at `residue` (modulo
  // wire::kResidues) after q's bytes; q stays where it is until the part is in or dropped.
  // q == nullptr: received and dropped. Local.
  void expect(InQueue* q, int source, std::size_t nbytes, std::size_t residue);
  // Receives q's part whole into q (and, before it, the parts from the same unit announced
  // earlier). Local; waits for the sender's messages. RuntimeError on a malformed piece.
  void complete(InQueue& q);
  // Receives q's part piece by piece, calling take(data, n) for each (data at the part's
  // residue modulo 64); the parts before it as
  // complete(). Local; waits for the sender. An exception from take leaves after the rest of
  // the part is received and dropped.
  template <class Take>
  void stream(InQueue& q, Take&& take) {
    const Entry e = take_entry(q);
    const std::size_t pieces = (e.nbytes + kPieceBytes - 1) / kPieceBytes;
    try {
      for (std::size_t i = 0; i < pieces; ++i) {
        const std::size_t n = receive_piece(e, i);
        take(static_cast<const char*>(piece_at(e)), n);
      }
    } catch (...) {
      skip_rest(e);
      throw;
    }
  }
  // q's part is not wanted: it is dropped when its turn comes. Local.
  void drop(InQueue& q);
  // Receives the part announced first (any unit) as complete() does; false if none waits.
  bool complete_one();
  // Receives every part still waiting, dropping them. Local; waits for the senders.
  void drop_all();
  bool empty() const { return waiting_ == 0; }

 private:
  struct Entry {
    InQueue* q;
    int source;
    std::size_t nbytes, residue;
  };
  // Completes the parts from q's unit before q's and takes q's entry off its list.
  Entry take_entry(InQueue& q);
  // Matches the piece of e that starts at its byte `done`; returns its size. RuntimeError if
  // it has another size than expected (it is received and dropped).
  std::size_t match_piece(const Entry& e, std::size_t done, dart_message_t& message);
  // stream(): receives piece i of e into the piece buffer; returns its size. After an error,
  // receives and drops the pieces of e not yet received.
  std::size_t receive_piece(const Entry& e, std::size_t i);
  void skip_rest(const Entry& e) noexcept;
  // The piece buffer, at e's residue.
  char* piece_at(const Entry& e);
  // Receives e's part into its queue (every piece started at once), or drops it.
  void receive(const Entry& e);

  dart_team_t team_;
  std::map<int, std::deque<Entry>> by_source_;
  std::size_t waiting_ = 0;
  std::vector<std::max_align_t> piece_;  // one piece, at its part's residue
  std::vector<char> odd_;                // a piece of the wrong size (then an error)
  std::vector<dart_handle_t> receives_;  // receive(): the pieces started
  std::size_t started_ = 0;              // stream(): pieces of the part started
};

}  // namespace internal
}  // namespace bp
}  // namespace dash

#endif  // DASH__BP__INTERNAL__DIRECT_ARRAYS_H_
