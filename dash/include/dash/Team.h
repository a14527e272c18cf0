// dash::Team: an ordered set of units that allocate containers and
// synchronise together. Team::All() holds every unit; split() and
// locality_split() make sub-teams, owned by their parent team.
//
// | call                      | cost                          |
// |---------------------------|-------------------------------|
// | All(), myid(), size()     | local                         |
// | split(), locality_split() | collective over this team     |
// | barrier()                 | collective over this team     |
// | bcast, allreduce,         | collective over this team:    |
// | allgather                 | one to three DART collectives |
#ifndef DASH__TEAM_H_
#define DASH__TEAM_H_

#include <dart/dart_locality.h>
#include <dart/dart_types.h>
#include <dash/Exception.h>
#include <dash/Types.h>
#include <dash/algorithm/Operation.h>
#include <dash/internal/DartType.h>
#include <dash/internal/Failure.h>
#include <dash/util/LocalityScope.h>

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dash {

// Where locality_split cuts a team: the one scope type of the library
// (Global, Node, NUMA, Core, Unit; dash/util/LocalityScope.h).
using LocalityScope = util::LocalityScope;

class Team {
 public:
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;
  ~Team();

  // The team of all units. Local.
  static Team& All();

  // The empty team: size 0, a member nowhere. Local.
  static Team& Null();

  // DART id of the team. Local.
  dart_team_t dart_id() const { return id_; }

  // Id of the calling unit in this team. Local; throws if the runtime is not
  // initialised or the caller is not a member.
  team_unit_t myid() const;

  // Id of the calling unit in Team::All(): dash::myid() under DASH's static name. Local.
  static global_unit_t GlobalUnitID();

  // Number of units in this team (0 for Null()). Local.
  std::size_t size() const;

  // Waits for all units of the team. Collective.
  void barrier() const;

  // Every unit's `value` combined with op: dash::plus<T>, dash::multiply<T>,
  // dash::min<T> or dash::max<T>; T arithmetic. One allreduce. Collective.
  template <class T, class Op>
  T allreduce(const T& value, Op op) const;
  // Element-wise over vectors of the same length on every unit. One
  // allreduce. Collective.
  template <class T, class Op>
  std::vector<T> allreduce(const std::vector<T>& values, Op op) const;

  // Unit root's `value` on every unit: a trivially copyable T (one
  // broadcast), or a std::vector of one or a std::string of any length (the
  // size, an allreduce agreeing that every unit made room, the elements; a
  // unit that could not throws its exception, the others
  // dash::exception::RemoteFailure). Collective.
  template <class T>
  void bcast(T& value, team_unit_t root = team_unit_t(0)) const;

  // Every unit's `value`, in unit order; T trivially copyable. One
  // allgather. Collective.
  template <class T>
  std::vector<T> allgather(const T& value) const;

  // Splits the team into `parts` sub-teams of consecutive units (sizes differ
  // by at most one) and returns the calling unit's one, owned by this team.
  // parts is clamped to [1, size()]. Collective.
  Team& split(unsigned parts);

  // Splits the team into one sub-team per domain of `scope` (for Node: per
  // real or emulated node). Returns the caller's sub-team. Collective.
  Team& locality_split(LocalityScope scope);

  // Splits the team by locality (dash::util::Locality::Scope: Node, NUMA,
  // ...): units of one domain at `scope` stay together, and the team's
  // domains (in tag order, see dash/util/Locality.h) are dealt in contiguous
  // runs to min(num_split, domains) sub-teams whose numbers of domains differ
  // by at most one. num_split is raised to at least 1. Returns the caller's
  // sub-team, owned by this team. Collective.
  Team& locality_split(util::LocalityScope scope, unsigned num_split);
  // The same with DART's scope type (DASH has both). Collective.
  Team& locality_split(dart_locality_scope_t scope, unsigned num_split) {
    return locality_split(static_cast<util::LocalityScope>(scope), num_split);
  }

  // The team this one was split from; Null() for All(). Local.
  Team& parent() const;

  // Global id of team unit `unit`. Local.
  global_unit_t global_id(team_unit_t unit) const;

  // Id in this team of global unit `unit`. Local; throws if not a member.
  team_unit_t relative_id(global_unit_t unit) const;

  // Nesting depth: 0 for All(), 1 for its sub-teams, ... Local.
  int position() const { return position_; }
  // How many teams the split that made this one made (this one included);
  // 1 for All(). Local.
  std::size_t num_siblings() const { return num_siblings_; }
  // Destroys this sub-team and its sub-teams (DASH's Team::free); the object
  // stays, as a null team. A team containers still use goes when the last of
  // them is freed. On All() it destroys All's sub-teams only: All lives until
  // dash::finalize (its containers stay valid). References to sub-teams of a
  // freed team are invalid afterwards. Collective over the team.
  void free();

  bool is_null() const { return id_ == DART_TEAM_NULL; }
  // True if no sub-team split from this team is alive (DASH's is_leaf). Local.
  bool is_leaf() const {
    for (const auto& sub : subteams_)
      if (!sub->is_null()) return false;
    return true;
  }
  bool operator==(const Team& other) const { return id_ == other.id_; }
  bool operator!=(const Team& other) const { return id_ != other.id_; }

  // Destroys all sub-teams of this team (recursively), and for All() ends
  // its extensions. Collective over each sub-team; called by dash::finalize. A sub-team that
  // containers still use stays alive (and its Team object valid) until the last of them is freed,
  // which then destroys it (collective, like the container's own release); one left at
  // dash::finalize is freed by the runtime's exit.
  void free_subteams();

  // Containers allocated on this team (GlobStaticMem) register here so that
  // free_subteams() keeps the team alive for them. Local. release_container
  // destroys a team whose destruction was requested once its last container
  // goes, if may_communicate (collective then); otherwise dart_exit does.
  void retain_container() { ++containers_; }
  void release_container(bool may_communicate);

  // State a layer above the core keeps per team (the block layer's message
  // communicator, dash::io's aggregation buffers): derive from Extension;
  // the core knows no more of it than that end() frees it.
  struct Extension {
    virtual ~Extension() = default;
    // Frees what the object holds on the team. Collective over the team;
    // called before the DART team goes (All's at dash::finalize).
    virtual void end(Team& team) = 0;
  };

  // This team's object of type T (derived from Extension), default-made by
  // the first call. Local, O(extensions on the team).
  template <class T>
  T& extension() {
    static_assert(std::is_base_of_v<Extension, T>,
                  "dash::Team::extension: T derives from Extension");
    static const char key = 0;  // one address per type
    for (auto& e : extensions_)
      if (e.first == &key) return static_cast<T&>(*e.second);
    extensions_.emplace_back(&key, std::make_unique<T>());
    return static_cast<T&>(*extensions_.back().second);
  }

 private:
  Team(dart_team_t id, Team* parent, int position);
  Team& adopt(dart_team_t id);
  // Ends and drops the extensions, the last made first. Collective.
  void end_extensions();
  // Destroys the sub-teams (recursively) that no container uses; marks the others. Collective.
  void release_subteams();
  // Destroys the DART team (collective); the object stays, as the null team.
  void destroy_dart_team();

  dart_team_t id_;
  Team* parent_;
  int position_;
  std::vector<std::unique_ptr<Team>> subteams_;
  std::size_t containers_ = 0;    // live containers on this team
  bool destroy_pending_ = false;  // free_subteams() asked while containers lived
  std::vector<std::pair<const void*, std::unique_ptr<Extension>>> extensions_;  // by type key
  std::size_t num_siblings_ = 1;  // teams made by the split that made this one
};

// Writes "dash::Team(id <dart team id>, <n> units, depth <d>)", or
// "dash::Team(null)". Local.
std::ostream& operator<<(std::ostream& os, const Team& team);

// ---- collectives with std:: types -------------------------------------------

namespace internal {
// A std::vector Team::bcast sends as size and elements (not vector<bool>).
template <class T>
struct is_bcast_vector : std::false_type {};
template <class E, class A>
struct is_bcast_vector<std::vector<E, A>> : std::true_type {};
template <class A>
struct is_bcast_vector<std::vector<bool, A>> : std::false_type {};
}  // namespace internal

template <class T, class Op>
T Team::allreduce(const T& value, Op) const {
  constexpr dart_datatype_t type = internal::dart_datatype_of<T>();
  static_assert(type != DART_TYPE_UNDEFINED, "dash::Team::allreduce: T must be arithmetic");
  static_assert(internal::dart_operation_of<Op>::value != DART_OP_UNDEFINED,
                "dash::Team::allreduce: op must be dash::plus, multiply, min or max");
  T out{};
  internal::check_dart(
      dart_allreduce(&value, &out, 1, type, internal::dart_operation_of<Op>::value, id_),
      "dash::Team::allreduce");
  return out;
}

template <class T, class Op>
std::vector<T> Team::allreduce(const std::vector<T>& values, Op) const {
  constexpr dart_datatype_t type = internal::dart_datatype_of<T>();
  static_assert(type != DART_TYPE_UNDEFINED, "dash::Team::allreduce: T must be arithmetic");
  static_assert(internal::dart_operation_of<Op>::value != DART_OP_UNDEFINED,
                "dash::Team::allreduce: op must be dash::plus, multiply, min or max");
  std::vector<T> out(values.size());
  if (!values.empty())
    internal::check_dart(dart_allreduce(values.data(), out.data(), values.size(), type,
                                        internal::dart_operation_of<Op>::value, id_),
                         "dash::Team::allreduce");
  return out;
}

template <class T>
void Team::bcast(T& value, team_unit_t root) const {
  static const char* const call = "dash::Team::bcast";
  if constexpr (internal::is_bcast_vector<T>::value || std::is_same_v<T, std::string>) {
    using E = typename T::value_type;
    static_assert(std::is_trivially_copyable_v<E>,
                  "dash::Team::bcast: vector elements must be trivially copyable");
    unsigned long long n = value.size();
    internal::check_dart(dart_bcast(&n, 1, DART_TYPE_ULONGLONG, DART_TEAM_UNIT_ID(root.id), id_),
                         call);
    // Every unit must know that every other can hold the n elements before the second
    // broadcast: a unit whose resize threw would leave the others waiting in it.
    internal::Failure failure;
    try {
      value.resize(std::size_t(n));
    } catch (...) {
      failure.capture();
    }
    internal::agree(failure, id_, call);
    if (n > 0)
      internal::check_dart(dart_bcast(value.data(), std::size_t(n) * sizeof(E), DART_TYPE_BYTE,
                                      DART_TEAM_UNIT_ID(root.id), id_),
                           call);
  } else {
    static_assert(std::is_trivially_copyable_v<T>,
                  "dash::Team::bcast: T must be trivially copyable, a std::vector or std::string");
    internal::check_dart(
        dart_bcast(&value, sizeof(T), DART_TYPE_BYTE, DART_TEAM_UNIT_ID(root.id), id_), call);
  }
}

template <class T>
std::vector<T> Team::allgather(const T& value) const {
  static_assert(std::is_trivially_copyable_v<T>,
                "dash::Team::allgather: T must be trivially copyable");
  std::vector<T> all(size());
  internal::check_dart(dart_allgather(&value, all.data(), sizeof(T), DART_TYPE_BYTE, id_),
                       "dash::Team::allgather");
  return all;
}

inline Team& Team::locality_split(util::LocalityScope scope, unsigned num_split) {
  if (is_null()) throw exception::InvalidArgument("dash::Team::locality_split: the team is Null");
  dart_team_t sub = DART_TEAM_NULL;
  internal::check_dart(dart_team_locality_split(id_, static_cast<dart_locality_scope_t>(scope),
                                                num_split == 0 ? 1 : num_split, &sub),
                       "dash::Team::locality_split");
  return adopt(sub);
}

}  // namespace dash

#endif  // DASH__TEAM_H_
