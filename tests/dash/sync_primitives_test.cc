// DASH's small synchronisation and utility types: dash::Mutex (read-modify-writes of shared
// values from every unit under the lock lose nothing, a two-word invariant is never seen torn,
// try_lock fails while another unit holds it, sub-team mutexes), dash::Comutex (one mutex per
// image), dash::SharedCounter (sums on every unit, sub-teams), dash::Coevent (rings, all-to-one,
// data handed over with an event, the iterators), dash::Pair (layout, order, as an element) and
// dash::broadcast (every root, contiguous and linked ranges, Shared and Coarray values, empty
// ranges); bad input (roots outside the team, ranges of different lengths, images outside the
// team, a unit unlocking a mutex it does not hold) throws with a message naming the call.
#include <dash/Array.h>
#include <dash/Coarray.h>
#include <dash/Coevent.h>
#include <dash/Comutex.h>
#include <dash/Exception.h>
#include <dash/Init.h>
#include <dash/Mutex.h>
#include <dash/Pair.h>
#include <dash/Shared.h>
#include <dash/SharedCounter.h>
#include <dash/Team.h>
#include <dash/algorithm/Bcast.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <deque>
#include <list>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "mpi_test.h"

namespace {

using dash_test::myid;
using dash_test::nunits;

// The message of the exception `statement` throws, "" if it throws none of type E.
template <class E, class F>
std::string message_of(F&& statement) {
  try {
    statement();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

// ---- dash::Mutex ------------------------------------------------------------------------------

TEST(Mutex, ReadModifyWritesUnderTheLockLoseNothing) {
  const long n = nunits(), rounds = 40;
  dash::Mutex mx;
  dash::Shared<long> total;
  total.barrier();
  for (long r = 0; r < rounds; ++r) {
    // lock/unlock, lock_guard and a try_lock spin in turn
    if (r % 3 == 0) {
      mx.lock();
      const long v = total.get();
      std::this_thread::yield();  // let another unit try to slip in
      total.set(v + 1);
      mx.unlock();
    } else if (r % 3 == 1) {
      std::lock_guard<dash::Mutex> hold(mx);
      const long v = total.get();
      std::this_thread::yield();
      total.set(v + 1);
    } else {
      while (!mx.try_lock()) std::this_thread::yield();
      const long v = total.get();
      total.set(v + 1);
      mx.unlock();
    }
  }
  total.barrier();
  EXPECT_EQ(static_cast<long>(total.get()), n * rounds);
}

TEST(Mutex, ATwoWordInvariantIsNeverSeenTorn) {
  // Every unit writes both words of the owner's pair in turn under the lock; whoever holds the
  // lock must find them equal.
  const long rounds = 30;
  dash::Mutex mx;
  dash::Shared<dash::Pair<long, long>> words;
  words.barrier();
  long torn = 0;
  for (long r = 0; r < rounds; ++r) {
    std::lock_guard<dash::Mutex> hold(mx);
    auto ref = words.get();
    const long first = ref.member(&dash::Pair<long, long>::first);
    const long second = ref.member(&dash::Pair<long, long>::second);
    if (first != second) ++torn;
    ref.member(&dash::Pair<long, long>::first) = first + 1;
    std::this_thread::yield();
    ref.member(&dash::Pair<long, long>::second) = first + 1;
  }
  words.barrier();
  EXPECT_EQ(torn, 0);
  const dash::Pair<long, long> end = words.get();
  EXPECT_EQ(end.first, nunits() * rounds);
  EXPECT_EQ(end.second, nunits() * rounds);
}

TEST(Mutex, TryLockFailsWhileAnotherUnitHoldsIt) {
  dash::Mutex mx;
  if (myid() == 0) mx.lock();
  dash::Team::All().barrier();
  if (myid() != 0) {
    EXPECT_FALSE(mx.try_lock());
  }
  dash::Team::All().barrier();
  if (myid() == 0) mx.unlock();
  dash::Team::All().barrier();
  // Free again: every unit takes it once, one after the other.
  for (int u = 0; u < nunits(); ++u) {
    if (myid() == u) {
      EXPECT_TRUE(mx.try_lock());
      mx.unlock();
    }
    dash::Team::All().barrier();
  }
}

TEST(Mutex, SubTeamMutexesExcludeWithinTheirTeam) {
  dash::Team& half = dash::Team::All().split(2);
  const long rounds = 20;
  {
    dash::Mutex mx(half);
    EXPECT_TRUE(mx.team() == half);
    dash::Shared<long> total(dash::team_unit_t{0}, half);
    for (long r = 0; r < rounds; ++r) {
      std::lock_guard<dash::Mutex> hold(mx);
      total.set(total.get() + 1);
    }
    half.barrier();
    EXPECT_EQ(static_cast<long>(total.get()), static_cast<long>(half.size()) * rounds);
    half.barrier();
  }
  dash::Team::All().barrier();
}

TEST(Mutex, MisuseThrows) {
  dash::Mutex mx;
  EXPECT_TRUE(mx.init());  // made already: init() keeps it
  EXPECT_NE(message_of<dash::exception::InvalidArgument>([&] { mx.unlock(); }), "");
  mx.lock();
  const std::string twice = message_of<dash::exception::InvalidArgument>([&] { mx.lock(); });
  EXPECT_NE(twice.find("dash::Mutex::lock"), std::string::npos) << twice;
  EXPECT_THROW(mx.try_lock(), dash::exception::InvalidArgument);
  mx.unlock();
  // A moved-from mutex has no lock.
  dash::Mutex moved(std::move(mx));
  EXPECT_FALSE(mx.is_initialized());
  const std::string none = message_of<dash::exception::NotInitialized>([&] { mx.lock(); });
  EXPECT_NE(none.find("no lock"), std::string::npos) << none;
  { std::lock_guard<dash::Mutex> hold(moved); }
  dash::Team::All().barrier();
}

// ---- dash::Comutex ----------------------------------------------------------------------------

TEST(Comutex, UpdatesOfEveryImageUnderItsMutexLoseNothing) {
  const int n = nunits(), me = myid(), rounds = 12;
  dash::Comutex comx;
  EXPECT_EQ(comx.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(std::distance(comx.begin(), comx.end()), n);
  dash::Coarray<int> counts;
  counts = 0;
  counts.sync_all();
  // Unit u updates image (u * 7 + 3 * r) % n in round r: every unit knows every update.
  auto target = [n](int u, int r) { return (u * 7 + 3 * r) % n; };
  for (int r = 0; r < rounds; ++r) {
    const int image = target(me, r);
    std::lock_guard<dash::Mutex> hold(comx(image));
    const int v = counts(image);
    std::this_thread::yield();
    counts(image) = v + 1;
  }
  counts.sync_all();
  std::vector<int> expected(n, 0);
  for (int u = 0; u < n; ++u)
    for (int r = 0; r < rounds; ++r) ++expected[target(u, r)];
  for (int image = 0; image < n; ++image)
    EXPECT_EQ(static_cast<int>(counts(image)), expected[image]) << "image " << image;
  counts.sync_all();
}

TEST(Comutex, ImagesOutsideTheTeamThrow) {
  dash::Comutex comx;
  const std::string past = message_of<dash::exception::OutOfRange>([&] { comx(nunits()); });
  EXPECT_NE(past.find("dash::Comutex::operator()"), std::string::npos) << past;
  EXPECT_THROW(comx(-1), dash::exception::OutOfRange);
  EXPECT_THROW(comx(dash::team_unit_t{nunits()}), dash::exception::OutOfRange);
  EXPECT_NO_THROW(comx(dash::team_unit_t{nunits() - 1}));
  EXPECT_THROW(comx.initialize(dash::Team::Null()), dash::exception::InvalidArgument);
}

// ---- dash::SharedCounter ----------------------------------------------------------------------

TEST(SharedCounter, EveryUnitSeesTheSumOfEveryChange) {
  const long n = nunits(), me = myid();
  dash::SharedCounter<long> counter;
  EXPECT_EQ(counter.get(), 0);
  dash::Team::All().barrier();
  // Unit u adds 1..u+3 and takes away u.
  for (long k = 1; k <= me + 3; ++k) counter.inc(k);
  counter.dec(me);
  dash::Team::All().barrier();
  long expected = 0;
  for (long u = 0; u < n; ++u) expected += (u + 3) * (u + 4) / 2 - u;
  EXPECT_EQ(counter.get(), expected);
  dash::Team::All().barrier();
  counter.dec(1);
  dash::Team::All().barrier();
  EXPECT_EQ(counter.get(), expected - n);
  dash::Team::All().barrier();
}

TEST(SharedCounter, FloatingAndSubTeamCounters) {
  dash::Team& half = dash::Team::All().split(2);
  {
    dash::SharedCounter<double> counter(half);
    EXPECT_TRUE(counter.team() == half);
    counter.inc(0.5);
    counter.inc(0.25);
    half.barrier();
    EXPECT_DOUBLE_EQ(counter.get(), 0.75 * static_cast<double>(half.size()));
    half.barrier();
  }
  dash::SharedCounter<std::size_t> unsigned_counter;
  unsigned_counter.inc(2);
  unsigned_counter.dec(1);
  dash::Team::All().barrier();
  EXPECT_EQ(unsigned_counter.get(), static_cast<std::size_t>(nunits()));
  dash::Team::All().barrier();
}

// ---- dash::Coevent ----------------------------------------------------------------------------

TEST(Coevent, ARingOfEventsAndTheDataTheyHandOver) {
  const int n = nunits(), me = myid(), next = (me + 1) % n, prev = (me + n - 1) % n;
  const int rounds = 10;
  dash::Coevent data;  // "your box holds a new value"
  dash::Coevent acks;  // "I have read it: you may write again"
  EXPECT_EQ(data.size(), n);
  dash::Coarray<int> box;
  box = -1;
  box.sync_all();
  for (int r = 0; r < rounds; ++r) {
    box(next) = 100 * r + me;  // a blocking write: at the image before the post
    data(next).post();
    data.wait();
    EXPECT_EQ(static_cast<int>(box), 100 * r + prev) << "round " << r;
    acks(prev).post();
    acks.wait();
  }
  EXPECT_EQ(data.test(), 0);
  EXPECT_EQ(acks.test(), 0);
  dash::Team::All().barrier();
}

TEST(Coevent, AllToOneAndWaitForMany) {
  const int n = nunits(), me = myid(), per_unit = 5;
  dash::Coevent events;
  for (int k = 0; k < per_unit; ++k) events(dash::team_unit_t{0}).post();
  if (me == 0) {
    events.wait(n * per_unit);
    EXPECT_EQ(events.test(), 0);
  }
  dash::Team::All().barrier();
  // Events stay counted until taken: test() sees them, wait(0) takes nothing.
  events(me).post();
  events(me).post();
  EXPECT_EQ(events(me).test(), 2);
  events.wait(0);
  EXPECT_EQ(events.test(), 2);
  events.wait(2);
  EXPECT_EQ(events.test(), 0);
  dash::Team::All().barrier();
}

TEST(Coevent, IteratorsNameTheImages) {
  const int n = nunits(), me = myid();
  dash::Coevent events;
  EXPECT_EQ(events.end() - events.begin(), n);
  auto it = events.begin();
  it += (me + 1) % n;
  EXPECT_TRUE(*it == events((me + 1) % n));
  EXPECT_TRUE(events.begin()[0] == events(0));
  EXPECT_TRUE(events.begin() < events.end());
  (*it).post();
  events.wait();  // the left neighbour's event
  int images = 0;
  for (auto i = events.begin(); i != events.end(); ++i) ++images;
  EXPECT_EQ(images, n);
  dash::Team::All().barrier();
}

TEST(Coevent, BadInputThrows) {
  dash::Coevent events;
  const std::string past = message_of<dash::exception::OutOfRange>([&] { events(nunits()); });
  EXPECT_NE(past.find("dash::Coevent::operator()"), std::string::npos) << past;
  EXPECT_THROW(events(-1), dash::exception::OutOfRange);
  const std::string negative =
      message_of<dash::exception::InvalidArgument>([&] { events.wait(-1); });
  EXPECT_NE(negative.find("negative"), std::string::npos) << negative;
  dash::Team::All().barrier();
}

// ---- dash::Pair -------------------------------------------------------------------------------

struct IntDouble {
  int first;
  double second;
};

TEST(Pair, LayoutOfAStructOfTheTwoMembers) {
  using P = dash::Pair<int, double>;
  static_assert(std::is_trivially_copyable_v<P>);
  static_assert(std::is_standard_layout_v<P>);
  static_assert(dash::is_container_compatible_v<P>);
  static_assert(std::is_same_v<P::first_type, int> && std::is_same_v<P::second_type, double>);
  EXPECT_EQ(sizeof(P), sizeof(IntDouble));
  EXPECT_EQ(offsetof(P, second), offsetof(IntDouble, second));
  const P zero;
  EXPECT_EQ(zero.first, 0);
  EXPECT_EQ(zero.second, 0.0);
  auto made = dash::make_pair(3, 2.5f);
  static_assert(std::is_same_v<decltype(made), dash::Pair<int, float>>);
  const P widened = made;
  EXPECT_EQ(widened, P(3, 2.5));
  const std::pair<int, double> standard = widened;
  EXPECT_EQ(standard, std::make_pair(3, 2.5));
  EXPECT_EQ(P(standard), widened);
  int x = 1;
  auto ref = dash::make_pair(std::ref(x), 'c');
  static_assert(std::is_same_v<decltype(ref), dash::Pair<int&, char>>);
  ref.first = 7;
  EXPECT_EQ(x, 7);
}

TEST(Pair, OrderIsLexicographic) {
  using P = dash::Pair<int, int>;
  EXPECT_TRUE(P(1, 9) < P(2, 0));
  EXPECT_TRUE(P(2, 0) < P(2, 1));
  EXPECT_FALSE(P(2, 1) < P(2, 1));
  EXPECT_TRUE(P(2, 1) <= P(2, 1));
  EXPECT_TRUE(P(2, 1) >= P(2, 1));
  EXPECT_TRUE(P(3, 0) > P(2, 5));
  EXPECT_TRUE(P(2, 5) != P(2, 6));
  std::vector<P> v{{2, 1}, {1, 5}, {2, 0}, {1, -1}, {0, 7}};
  std::sort(v.begin(), v.end());
  EXPECT_EQ(v, (std::vector<P>{{0, 7}, {1, -1}, {1, 5}, {2, 0}, {2, 1}}));
  P a(1, 2), b(3, 4);
  swap(a, b);
  EXPECT_EQ(a, P(3, 4));
  EXPECT_EQ(b, P(1, 2));
}

TEST(Pair, ElementsOfAnArrayReadAndCompareRemotely) {
  using P = dash::Pair<int, long>;
  const int n = nunits(), me = myid();
  const long per_unit = 5;
  dash::Array<P> a(n * per_unit);
  long l = 0;
  for (P* p = a.lbegin(); p != a.lend(); ++p, ++l) *p = dash::make_pair(me, l);
  a.barrier();
  for (long i = 0; i < static_cast<long>(a.size()); ++i) {
    const P expected(static_cast<int>(i / per_unit), i % per_unit);
    const P got = a[i];
    EXPECT_EQ(got, expected) << "element " << i;
    EXPECT_TRUE(a[i] == expected);
    EXPECT_TRUE(a[i] == a[i]);  // two references compare as their values
  }
  a.barrier();
}

// ---- dash::broadcast --------------------------------------------------------------------------

TEST(Broadcast, ContiguousAndLinkedRangesFromEveryRoot) {
  const int n = nunits(), me = myid();
  for (int root = 0; root < n; ++root) {
    std::vector<int> v(7);
    std::iota(v.begin(), v.end(), 100 * me);
    dash::broadcast(v.begin(), v.end(), dash::team_unit_t{root});
    for (int i = 0; i < 7; ++i) EXPECT_EQ(v[i], 100 * root + i) << "root " << root;

    std::list<long> list(5);
    std::iota(list.begin(), list.end(), 10L * me);
    dash::broadcast(list.begin(), list.end(), dash::team_unit_t{root});
    long k = 0;
    for (long x : list) EXPECT_EQ(x, 10L * root + k++) << "root " << root;

    std::deque<dash::Pair<int, char>> deque(3, dash::make_pair(me, 'a'));
    dash::broadcast(deque.begin(), deque.end(), dash::team_unit_t{root});
    for (const auto& p : deque) EXPECT_EQ(p, dash::make_pair(root, 'a'));

    double raw[3] = {me + 0.5, me + 1.5, me + 2.5};
    dash::broadcast(raw, raw + 3, dash::team_unit_t{root});
    EXPECT_EQ(raw[2], root + 2.5);

    std::vector<int> empty;
    EXPECT_NO_THROW(dash::broadcast(empty.begin(), empty.end(), dash::team_unit_t{root}));
  }
}

TEST(Broadcast, SharedAndCoarrayValuesFromEveryOwner) {
  struct Point {
    int x, y;
  };
  const int n = nunits(), me = myid();
  for (int owner = 0; owner < n; ++owner) {
    dash::Shared<Point> shared(Point{owner, -owner}, dash::team_unit_t{owner});
    const Point p = dash::broadcast(shared);
    EXPECT_EQ(p.x, owner);
    EXPECT_EQ(p.y, -owner);
    EXPECT_EQ(shared.local() != nullptr, me == owner);

    dash::Coarray<int[3]> coarr;
    for (int i = 0; i < 3; ++i) coarr[i] = 10 * me + i;
    dash::broadcast(coarr, dash::team_unit_t{owner});
    for (int i = 0; i < 3; ++i) EXPECT_EQ(coarr[i], 10 * owner + i);
    coarr.barrier();
  }
}

TEST(Broadcast, SubTeamRootsAreRelativeToTheTeam) {
  dash::Team& half = dash::Team::All().split(2);
  std::vector<int> v(4, myid());
  const int root = static_cast<int>(half.size()) - 1;
  dash::broadcast(v.begin(), v.end(), dash::team_unit_t{root}, half);
  const int expected = static_cast<int>(half.global_id(dash::team_unit_t{root}).id);
  for (int x : v) EXPECT_EQ(x, expected);
  dash::Team::All().barrier();
}

TEST(Broadcast, BadInputThrowsOnEveryUnit) {
  const int n = nunits(), me = myid();
  std::vector<int> v(3, me);
  const std::string outside = message_of<dash::exception::InvalidArgument>(
      [&] { dash::broadcast(v.begin(), v.end(), dash::team_unit_t{n}); });
  EXPECT_NE(outside.find("root " + std::to_string(n) + " is not a unit"), std::string::npos)
      << outside;
  EXPECT_THROW(dash::broadcast(v.begin(), v.end(), dash::team_unit_t{-1}),
               dash::exception::InvalidArgument);
  dash::Coarray<int> coarr;
  EXPECT_THROW(dash::broadcast(coarr, dash::team_unit_t{n}), dash::exception::InvalidArgument);
  if (n > 1) {
    // Unit 0's range is one element shorter: every unit learns it, none waits forever.
    std::vector<int> uneven(me == 0 ? 2 : 3, me);
    const std::string lengths = message_of<dash::exception::InvalidArgument>(
        [&] { dash::broadcast(uneven.begin(), uneven.end(), dash::team_unit_t{0}); });
    EXPECT_NE(lengths.find("differ in length"), std::string::npos) << lengths;
    EXPECT_EQ(uneven[0], me);  // untouched
  }
  dash::Team::All().barrier();
}

}  // namespace
