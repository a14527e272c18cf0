// dash::util::LocalityDomain: one domain of a team's locality tree (dart_locality.h), as DASH's
// class of that name.
//
//   dash::util::TeamLocality tloc(dash::Team::All());
//   dash::util::LocalityDomain& root = tloc.domain();       // ".", the whole team
//   for (const dash::util::LocalityDomain& node : root)     // its subdomains (nodes)
//     ... node.domain_tag(), node.units(), node.dart_type().num_cores ...
//   root.group({".0.0.0.0.0", ".0.0.0.1.0"});                // a GROUP domain of those two
//   root.split(dash::util::Locality::Scope::Core, 2);        // root.parts(): two halves
//
// A domain made by value (from a team and tag, or as a copy of another domain) owns a private
// copy of its subtree (dart_domain_clone): changing it (group, select, exclude) never touches
// DART's tree or another object's copy. Subdomains reached by at(), iteration or groups() are
// references into that copy, made on first use and kept; a change of a domain invalidates the
// references to domains below it (as in DASH).
//
// | call                                           | cost                                   |
// |------------------------------------------------|----------------------------------------|
// | LocalityDomain(team, tag), copies              | local, O(size of the subtree)          |
// | tag, scope, units, size, dart_type, at, begin  | local, O(1) (at: first use O(units))   |
// | scope_domains, find                            | local, O(subtree) plus copies returned |
// | group, select, exclude                         | local, O(subtree)                      |
// | split(scope, n), split_groups                  | local, O(parts x subtree)              |
#ifndef DASH__UTIL__LOCALITY_DOMAIN_H_
#define DASH__UTIL__LOCALITY_DOMAIN_H_

#include <dart/dart_locality.h>
#include <dash/Exception.h>
#include <dash/Team.h>
#include <dash/Types.h>
#include <dash/util/Locality.h>

#include <cstddef>
#include <iterator>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace dash {
namespace util {

namespace internal {

// Random-access iterator over the subdomains of a LocalityDomain (D is LocalityDomain or
// const LocalityDomain); dereferencing gives a reference to the cached subdomain. Local.
template <class D>
class LocalityDomainIterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = std::remove_const_t<D>;
  using difference_type = std::ptrdiff_t;
  using pointer = D*;
  using reference = D&;

  LocalityDomainIterator() = default;
  LocalityDomainIterator(D& domain, difference_type index) : domain_(&domain), index_(index) {}
  // A const iterator from a mutable one.
  template <class Other, class = std::enable_if_t<std::is_convertible<Other*, D*>::value>>
  LocalityDomainIterator(const LocalityDomainIterator<Other>& other)
      : domain_(other.domain_), index_(other.index_) {}

  reference operator*() const { return domain_->at(std::size_t(index_)); }
  pointer operator->() const { return &**this; }
  reference operator[](difference_type k) const { return domain_->at(std::size_t(index_ + k)); }
  LocalityDomainIterator& operator++() { return ++index_, *this; }
  LocalityDomainIterator operator++(int) { return LocalityDomainIterator(*domain_, index_++); }
  LocalityDomainIterator& operator--() { return --index_, *this; }
  LocalityDomainIterator operator--(int) { return LocalityDomainIterator(*domain_, index_--); }
  LocalityDomainIterator& operator+=(difference_type k) { return index_ += k, *this; }
  LocalityDomainIterator& operator-=(difference_type k) { return index_ -= k, *this; }
  LocalityDomainIterator operator+(difference_type k) const {
    return LocalityDomainIterator(*domain_, index_ + k);
  }
  LocalityDomainIterator operator-(difference_type k) const {
    return LocalityDomainIterator(*domain_, index_ - k);
  }
  difference_type operator-(const LocalityDomainIterator& o) const { return index_ - o.index_; }
  bool operator==(const LocalityDomainIterator& o) const {
    return domain_ == o.domain_ && index_ == o.index_;
  }
  bool operator!=(const LocalityDomainIterator& o) const { return !(*this == o); }
  bool operator<(const LocalityDomainIterator& o) const { return index_ < o.index_; }

 private:
  template <class>
  friend class LocalityDomainIterator;
  D* domain_ = nullptr;
  difference_type index_ = 0;
};

}  // namespace internal

class LocalityDomain {
 public:
  using Scope = Locality::Scope;
  using iterator = internal::LocalityDomainIterator<LocalityDomain>;
  using const_iterator = internal::LocalityDomainIterator<const LocalityDomain>;

  // No domain (size 0, no units).
  LocalityDomain() = default;
  // A copy of the domain of `team` named `tag` (".", ".0", ".0.1", ...) and everything below
  // it. Throws dash::exception::InvalidArgument for a tag naming no domain. Local.
  explicit LocalityDomain(Team& team, const std::string& tag = ".");
  // Deep copies: the copy owns its own tree (parts and group tags come along). Local.
  LocalityDomain(const LocalityDomain& other);
  LocalityDomain& operator=(const LocalityDomain& other);
  LocalityDomain(LocalityDomain&& other) noexcept;
  LocalityDomain& operator=(LocalityDomain&& other) noexcept;
  ~LocalityDomain();

  Team& team() const { return *team_; }
  dart_team_t dart_team() const { return node_ == nullptr ? DART_TEAM_NULL : node_->team; }
  const std::string& domain_tag() const { return tag_; }
  Scope scope() const { return node_ == nullptr ? Scope::Undefined : Scope(node_->scope); }
  int level() const { return node_ == nullptr ? -1 : node_->level; }
  int relative_index() const { return node_ == nullptr ? -1 : node_->relative_index; }
  int global_index() const { return node_ == nullptr ? -1 : node_->global_index; }
  int node_id() const { return node_ == nullptr ? -1 : node_->node_id; }
  int num_nodes() const { return node_ == nullptr ? -1 : node_->num_nodes; }
  int shared_mem_bytes() const { return node_ == nullptr ? -1 : node_->shared_mem_bytes; }
  // The domain's host; "" if it spans several (or for no domain).
  std::string host() const { return node_ == nullptr ? std::string() : node_->host; }
  // Node, NUMA or core index of the domain, the team unit id for Unit; -1 if unknown, 0 for
  // other scopes. Local.
  int index() const;
  // The global ids of the units inside, ascending (DASH's units()). Local.
  const std::vector<global_unit_t>& units() const { return units_; }
  // The same as ids in team(), ascending. Local, O(units).
  std::vector<team_unit_t> team_units() const;
  std::size_t num_units() const { return units_.size(); }
  // The unit DASH calls the domain's leader: global unit 0 if inside, else the first unit.
  global_unit_t leader_unit() const;
  // True for a GROUP domain (made by group() or TeamLocality::split into fewer parts).
  bool is_group() const { return scope() == Scope::Group; }
  // Cores in the domain (dart_domain_locality_t::num_cores, see dart_locality.h): of a node
  // (or the team), the usable cores of its nodes; of a module or NUMA domain, its cores holding
  // units of the team; of a core 1; of a unit, the cores its binding allows (-1 unknown); of a
  // group, its members' sum. Local.
  int num_cores() const { return node_ == nullptr ? -1 : node_->num_cores; }
  // The record of the domain in this object's tree (a copy of DART's; valid while this object
  // lives and is not changed). Throws InvalidArgument for no domain. Local.
  const dart_domain_locality_t& dart_type() const;

  // Subdomains: how many, the i-th (throws InvalidArgument out of range), all of them by
  // iteration. Local; a subdomain is made on first use.
  std::size_t size() const { return node_ == nullptr ? 0 : std::size_t(node_->num_domains); }
  const LocalityDomain& at(std::size_t i) const;
  LocalityDomain& at(std::size_t i) {
    return const_cast<LocalityDomain&>(std::as_const(*this).at(i));
  }
  iterator begin() { return iterator(*this, 0); }
  iterator end() { return iterator(*this, std::ptrdiff_t(size())); }
  const_iterator begin() const { return const_iterator(*this, 0); }
  const_iterator end() const { return const_iterator(*this, std::ptrdiff_t(size())); }

  // Copies of the domains of `scope` inside this one, in tree order (this one if it is of that
  // scope; none if there are none). Local.
  std::vector<LocalityDomain> scope_domains(Scope scope) const;
  // A copy of the descendant (or this domain) named `tag`. Throws InvalidArgument if it is not
  // inside this one. Local.
  LocalityDomain find(const std::string& tag) const;

  // Keeps below this domain only the named domains (with everything below them) and their
  // ancestors (dart_domain_select); parts made before follow where they hold the domains.
  // Throws InvalidArgument for no tags or a tag naming no domain inside this one. Local.
  LocalityDomain& select(const std::vector<std::string>& tags);
  // Removes the named domains and everything below them (dart_domain_exclude); parts follow
  // where they hold the domains. Throws InvalidArgument for no tags or a tag naming no domain
  // strictly inside this one. Local.
  LocalityDomain& exclude(const std::vector<std::string>& tags);
  // Groups the named domains (strictly inside this one; repeated tags count once; none inside
  // another) under a new GROUP domain (dart_domain_group) and returns it; groups() lists it,
  // parts made before group their copies too where they hold every named domain. Throws
  // InvalidArgument for no tags, a tag naming no domain strictly inside, or nested domains.
  // Local.
  LocalityDomain& group(const std::vector<std::string>& tags);
  // The groups made by group(), oldest first (a group later put into another group is
  // dropped). Local, O(groups x depth).
  std::vector<iterator> groups();
  std::vector<const_iterator> groups() const;
  // parts() becomes this domain's domains at `scope` (in tree order) dealt in contiguous runs to
  // `parts` parts whose numbers of domains differ by at most one (parts < 1 or more parts than
  // domains: one part per domain); each part is a copy of this domain keeping only its run
  // (dart_domain_select). Throws InvalidArgument if there is no domain at `scope`. Local.
  LocalityDomain& split(Scope scope, int parts);
  // parts() becomes one part per group of groups(): a copy of this domain keeping only that
  // group. Local.
  LocalityDomain& split_groups();
  // The parts of the last split or split_groups (none before). Local.
  std::vector<LocalityDomain>& parts() { return parts_; }
  const std::vector<LocalityDomain>& parts() const { return parts_; }

  // Same team, tag and units.
  friend bool operator==(const LocalityDomain& a, const LocalityDomain& b) {
    return a.dart_team() == b.dart_team() && a.tag_ == b.tag_ && a.units_ == b.units_;
  }
  friend bool operator!=(const LocalityDomain& a, const LocalityDomain& b) { return !(a == b); }

  // True if `tag` names `parent` or a domain inside it.
  static bool inside(const std::string& tag, const std::string& parent);

 private:
  struct TreeDeleter {
    void operator()(dart_domain_locality_t* root) const;
  };
  using Tree = std::shared_ptr<dart_domain_locality_t>;

  // A view of `node` in `tree` (a subdomain of a cached parent).
  LocalityDomain(Team& team, Tree tree, dart_domain_locality_t* node);
  // Owns a private copy of `node`'s subtree.
  void adopt_copy_of(Team& team, const dart_domain_locality_t& node);
  // Reads tag and units of node_ again and forgets cached subdomains (after a change).
  void refresh();
  // The cached descendant named `tag` (nullptr if none).
  const LocalityDomain* descendant(const std::string& tag) const;
  // This domain's records (in its tree) and tags of the domains at `scope`, in tree order
  // (none if there are none).
  std::vector<const dart_domain_locality_t*> scope_records(Scope scope) const;
  std::vector<std::string> scope_tags(Scope scope) const;
  using Filter = dart_ret_t (*)(dart_domain_locality_t*, int, const char**);
  // Applies DART's select or exclude (`call`, named `name`) to this domain, then to the parts
  // holding every named domain.
  void filter(const char* name, const std::vector<std::string>& tags, Filter call);
  // A copy of this domain keeping only the named domains.
  LocalityDomain copy_selecting(const std::vector<std::string>& tags) const;
  // True if every tag names a domain in this domain.
  bool holds_all(const std::vector<std::string>& tags) const;

  Team* team_ = &Team::Null();
  Tree tree_;                               // the tree node_ lives in
  dart_domain_locality_t* node_ = nullptr;  // this domain
  std::string tag_;
  std::vector<global_unit_t> units_;
  mutable std::vector<std::unique_ptr<LocalityDomain>> children_;  // made on first use
  std::vector<std::string> group_tags_;                            // of group()
  std::vector<LocalityDomain> parts_;                              // of split, split_groups
};

// Writes the domain and every domain inside it, one line each, indented by depth:
// "<tag> (<scope>[, host <host>], units <global ids>)". Local.
std::ostream& operator<<(std::ostream& os, const LocalityDomain& domain);

}  // namespace util
}  // namespace dash

#endif  // DASH__UTIL__LOCALITY_DOMAIN_H_
