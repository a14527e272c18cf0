// Which unit owns a key of a dash::UnorderedMap: the map's Hash functor maps
// a key to a dash::team_unit_t (or to an integer, taken modulo the team
// size). dash::HashLocal, DASH's default, makes every unit the owner of what
// it inserts.
#ifndef DASH__MAP__HASH_POLICY_H_
#define DASH__MAP__HASH_POLICY_H_

#include <dash/Team.h>
#include <dash/Types.h>

namespace dash {

// Owner of every key: the unit that inserts it. Lookups of a map with this
// hash search every unit's elements. Local.
template <class Key>
class HashLocal {
 public:
  using argument_type = Key;
  using result_type = team_unit_t;

  HashLocal() = default;
  explicit HashLocal(Team& team) : myid_(team.myid()) {}

  // The calling unit. Local.
  result_type operator()(const argument_type&) const { return myid_; }

 private:
  team_unit_t myid_{0};
};

}  // namespace dash

#endif  // DASH__MAP__HASH_POLICY_H_
