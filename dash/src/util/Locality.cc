// dash::util::LocalityDomain and TeamLocality: the bodies of LocalityDomain.h and TeamLocality.h.
#include <dash/util/LocalityDomain.h>
#include <dash/util/TeamLocality.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace dash {
namespace util {

namespace {

// "name({a, b})": the call and its tags, for exception messages.
std::string call_with_tags(const char* name, const std::vector<std::string>& tags) {
  std::string call = std::string("dash::util::LocalityDomain::") + name + "({";
  for (std::size_t i = 0; i < tags.size(); ++i) call += (i ? ", " : "") + tags[i];
  return call + "})";
}

std::vector<const char*> c_strings(const std::vector<std::string>& tags) {
  std::vector<const char*> out;
  out.reserve(tags.size());
  for (const auto& t : tags) out.push_back(t.c_str());
  return out;
}

// The tag of the domain holding `tag` ("." for a node's).
std::string parent_tag(const std::string& tag) {
  const auto dot = tag.rfind('.');
  return dot == 0 || dot == std::string::npos ? std::string(".") : tag.substr(0, dot);
}

}  // namespace

// ---- LocalityDomain: making, copying ----

void LocalityDomain::TreeDeleter::operator()(dart_domain_locality_t* root) const {
  dart_domain_destroy(root);
}

LocalityDomain::LocalityDomain(Team& team, const std::string& tag) {
  adopt_copy_of(team, Locality(team).record(tag));
}

LocalityDomain::LocalityDomain(Team& team, Tree tree, dart_domain_locality_t* node)
    : team_(&team), tree_(std::move(tree)), node_(node) {
  refresh();
}

LocalityDomain::LocalityDomain(const LocalityDomain& other)
    : group_tags_(other.group_tags_), parts_(other.parts_) {
  if (other.node_ != nullptr) adopt_copy_of(*other.team_, *other.node_);
}

LocalityDomain& LocalityDomain::operator=(const LocalityDomain& other) {
  if (this != &other) *this = LocalityDomain(other);
  return *this;
}

LocalityDomain::LocalityDomain(LocalityDomain&& other) noexcept
    : team_(other.team_),
      tree_(std::move(other.tree_)),
      node_(std::exchange(other.node_, nullptr)),
      tag_(std::move(other.tag_)),
      units_(std::move(other.units_)),
      children_(std::move(other.children_)),
      group_tags_(std::move(other.group_tags_)),
      parts_(std::move(other.parts_)) {}

LocalityDomain& LocalityDomain::operator=(LocalityDomain&& other) noexcept {
  if (this != &other) {
    team_ = other.team_;
    tree_ = std::move(other.tree_);
    node_ = std::exchange(other.node_, nullptr);
    tag_ = std::move(other.tag_);
    units_ = std::move(other.units_);
    children_ = std::move(other.children_);
    group_tags_ = std::move(other.group_tags_);
    parts_ = std::move(other.parts_);
  }
  return *this;
}

LocalityDomain::~LocalityDomain() = default;

void LocalityDomain::adopt_copy_of(Team& team, const dart_domain_locality_t& node) {
  dart_domain_locality_t* copy = nullptr;
  dash::internal::check_dart(dart_domain_clone(&node, &copy), "dash::util::LocalityDomain (copy)");
  tree_ = Tree(copy, TreeDeleter());
  node_ = copy;
  team_ = &team;
  refresh();
}

void LocalityDomain::refresh() {
  tag_ = node_->domain_tag;
  units_.assign(node_->unit_ids, node_->unit_ids + node_->num_units);
  children_.clear();
  children_.resize(std::size_t(node_->num_domains));
}

// ---- LocalityDomain: queries ----

int LocalityDomain::index() const {
  if (units_.empty()) return -1;
  const Locality::UnitLocality first = Locality(*team_).unit(team_->relative_id(units_.front()));
  switch (scope()) {
    case Scope::Node:
      return first.node;
    case Scope::NUMA:
      return first.numa;
    case Scope::Core:
      return first.core;
    case Scope::Unit:
      return first.unit.id;
    default:
      return 0;
  }
}

std::vector<team_unit_t> LocalityDomain::team_units() const {
  std::vector<team_unit_t> out;
  out.reserve(units_.size());
  for (global_unit_t g : units_) out.push_back(team_->relative_id(g));
  std::sort(out.begin(), out.end());
  return out;
}

global_unit_t LocalityDomain::leader_unit() const {
  if (units_.empty())
    throw exception::InvalidArgument("dash::util::LocalityDomain::leader_unit: domain '" + tag_ +
                                     "' holds no units");
  if (std::find(units_.begin(), units_.end(), global_unit_t(0)) != units_.end())
    return global_unit_t(0);
  return units_.front();
}

const dart_domain_locality_t& LocalityDomain::dart_type() const {
  if (node_ == nullptr)
    throw exception::InvalidArgument("dash::util::LocalityDomain::dart_type: no domain");
  return *node_;
}

const LocalityDomain& LocalityDomain::at(std::size_t i) const {
  if (i >= size())
    throw exception::InvalidArgument("dash::util::LocalityDomain::at: subdomain " +
                                     std::to_string(i) + " of " + std::to_string(size()) + " in " +
                                     tag_);
  if (children_.size() != size()) children_.resize(size());
  if (!children_[i]) children_[i].reset(new LocalityDomain(*team_, tree_, node_->children[i]));
  return *children_[i];
}

std::vector<const dart_domain_locality_t*> LocalityDomain::scope_records(Scope scope) const {
  std::vector<const dart_domain_locality_t*> out;
  if (node_ == nullptr) return out;
  int n = 0;
  dart_domain_locality_t** found = nullptr;
  const dart_ret_t ret =
      dart_domain_scope_domains(node_, static_cast<dart_locality_scope_t>(scope), &n, &found);
  if (ret == DART_ERR_NOTFOUND) return out;
  dash::internal::check_dart(ret, "dash::util::LocalityDomain::scope_domains");
  out.assign(found, found + n);
  std::free(found);
  return out;
}

std::vector<LocalityDomain> LocalityDomain::scope_domains(Scope scope) const {
  const auto records = scope_records(scope);
  std::vector<LocalityDomain> out(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) out[i].adopt_copy_of(*team_, *records[i]);
  return out;
}

LocalityDomain LocalityDomain::find(const std::string& tag) const {
  dart_domain_locality_t* found = nullptr;
  if (node_ == nullptr || !inside(tag, tag_) ||
      dart_domain_find(node_, tag.c_str(), &found) != DART_OK)
    throw exception::InvalidArgument("dash::util::LocalityDomain::find: " + tag +
                                     " is not inside " + tag_);
  LocalityDomain out;
  out.adopt_copy_of(*team_, *found);
  return out;
}

bool LocalityDomain::inside(const std::string& tag, const std::string& parent) {
  if (parent == ".") return !tag.empty() && tag[0] == '.';
  return tag == parent || (tag.size() > parent.size() &&
                           tag.compare(0, parent.size(), parent) == 0 && tag[parent.size()] == '.');
}

const LocalityDomain* LocalityDomain::descendant(const std::string& tag) const {
  if (tag == tag_) return this;
  for (std::size_t i = 0; i < size(); ++i) {
    const LocalityDomain& child = at(i);
    if (inside(tag, child.tag_)) return child.descendant(tag);
  }
  return nullptr;
}

std::vector<std::string> LocalityDomain::scope_tags(Scope scope) const {
  std::vector<std::string> out;
  for (const dart_domain_locality_t* d : scope_records(scope)) out.emplace_back(d->domain_tag);
  return out;
}

bool LocalityDomain::holds_all(const std::vector<std::string>& tags) const {
  dart_domain_locality_t* found = nullptr;
  for (const auto& t : tags)
    if (node_ == nullptr || dart_domain_find(node_, t.c_str(), &found) != DART_OK) return false;
  return true;
}

// ---- LocalityDomain: changes ----

LocalityDomain LocalityDomain::copy_selecting(const std::vector<std::string>& tags) const {
  LocalityDomain part;
  part.adopt_copy_of(*team_, *node_);
  if (tags.size() == 1 && tags.front() == tag_) return part;  // the domain itself
  part.filter("select", tags, dart_domain_select);
  return part;
}

void LocalityDomain::filter(const char* name, const std::vector<std::string>& tags, Filter call) {
  if (node_ == nullptr)
    throw exception::InvalidArgument(call_with_tags(name, tags) + ": no domain");
  auto c = c_strings(tags);
  dash::internal::check_dart(call(node_, int(c.size()), c.data()),
                             call_with_tags(name, tags).c_str());
  refresh();
  for (auto& part : parts_)
    if (part.holds_all(tags)) part.filter(name, tags, call);
}

LocalityDomain& LocalityDomain::select(const std::vector<std::string>& tags) {
  filter("select", tags, dart_domain_select);
  return *this;
}

LocalityDomain& LocalityDomain::exclude(const std::vector<std::string>& tags) {
  filter("exclude", tags, dart_domain_exclude);
  return *this;
}

LocalityDomain& LocalityDomain::group(const std::vector<std::string>& tags) {
  if (node_ == nullptr)
    throw exception::InvalidArgument(call_with_tags("group", tags) + ": no domain");
  auto c = c_strings(tags);
  char group_tag[DART_LOCALITY_DOMAIN_TAG_MAX_SIZE] = "";
  dash::internal::check_dart(dart_domain_group(node_, int(c.size()), c.data(), group_tag),
                             call_with_tags("group", tags).c_str());
  refresh();
  group_tags_.emplace_back(group_tag);
  for (auto& part : parts_)
    if (part.holds_all(tags)) part.group(tags);
  return const_cast<LocalityDomain&>(*descendant(group_tag));
}

std::vector<LocalityDomain::const_iterator> LocalityDomain::groups() const {
  std::vector<const_iterator> out;
  for (const auto& tag : group_tags_) {
    const LocalityDomain* group = descendant(tag);
    if (group == nullptr || !group->is_group()) continue;  // moved into a later group
    const LocalityDomain* parent = descendant(parent_tag(tag));
    out.emplace_back(*parent, group->relative_index());
  }
  return out;
}

std::vector<LocalityDomain::iterator> LocalityDomain::groups() {
  std::vector<iterator> out;
  for (const const_iterator& g : std::as_const(*this).groups()) {
    const LocalityDomain* parent = descendant(parent_tag(g->domain_tag()));
    out.emplace_back(const_cast<LocalityDomain&>(*parent), g->relative_index());
  }
  return out;
}

LocalityDomain& LocalityDomain::split(Scope scope, int parts) {
  const auto tags = scope_tags(scope);
  if (tags.empty())
    throw exception::InvalidArgument(std::string("dash::util::LocalityDomain::split: no ") +
                                     locality_scope_name(scope) + " domain in " + tag_);
  const std::size_t n = tags.size();
  const std::size_t p = parts < 1 || std::size_t(parts) >= n ? n : std::size_t(parts);
  parts_.clear();
  for (std::size_t g = 0; g < p; ++g) {
    const std::size_t first = g * n / p, last = (g + 1) * n / p;
    parts_.push_back(copy_selecting(
        std::vector<std::string>(tags.begin() + long(first), tags.begin() + long(last))));
  }
  return *this;
}

LocalityDomain& LocalityDomain::split_groups() {
  std::vector<LocalityDomain> made;
  for (const const_iterator& g : std::as_const(*this).groups())
    made.push_back(copy_selecting({g->domain_tag()}));
  parts_ = std::move(made);
  return *this;
}

// ---- printing ----

namespace {

void print_domain(std::ostream& os, const LocalityDomain& d, int depth) {
  os << std::string(2 * std::size_t(depth), ' ') << d.domain_tag() << " ("
     << locality_scope_name(d.scope());
  if (!d.host().empty()) os << ", host " << d.host();
  os << ", units";
  for (global_unit_t u : d.units()) os << " " << u.id;
  os << ")\n";
  for (const LocalityDomain& sub : d) print_domain(os, sub, depth + 1);
}

}  // namespace

std::ostream& operator<<(std::ostream& os, const LocalityDomain& domain) {
  print_domain(os, domain, 0);
  return os;
}

// ---- TeamLocality ----

TeamLocality::TeamLocality(Team& team, Scope scope, const std::string& tag)
    : team_(&team), domain_(team, tag), domains_{domain_}, unit_localities_(team.size()) {
  if (scope != Scope::Global) split(scope);
}

TeamLocality::TeamLocality(Team& team, const LocalityDomain& domain)
    : team_(&team), domain_(domain), domains_{domain_}, unit_localities_(team.size()) {}

const UnitLocality& TeamLocality::unit_locality(team_unit_t unit) const {
  if (unit.id < 0 || std::size_t(unit.id) >= unit_localities_.size())
    throw exception::InvalidArgument("dash::util::TeamLocality::unit_locality: unit " +
                                     std::to_string(unit.id) + " is not in a team of " +
                                     std::to_string(unit_localities_.size()));
  auto& slot = unit_localities_[std::size_t(unit.id)];
  if (!slot) slot.emplace(*team_, unit);
  return *slot;
}

UnitLocality& TeamLocality::unit_locality(team_unit_t unit) {
  return const_cast<UnitLocality&>(std::as_const(*this).unit_locality(unit));
}

TeamLocality& TeamLocality::select(const std::string& tag) {
  if (!LocalityDomain::inside(tag, domain_.domain_tag()))
    throw exception::InvalidArgument("dash::util::TeamLocality::select: " + tag +
                                     " is not inside " + domain_.domain_tag());
  domain_ = LocalityDomain(*team_, tag);
  domains_ = {domain_};
  split_scope_ = Scope::Global;
  return *this;
}

TeamLocality& TeamLocality::split(Scope scope, int parts) {
  if (parts < 0)
    throw exception::InvalidArgument("dash::util::TeamLocality::split: " + std::to_string(parts) +
                                     " parts");
  domain_.split(scope, parts);
  split_scope_ = scope;
  std::vector<LocalityDomain> all = domain_.scope_domains(scope);
  const std::size_t n = all.size();
  const std::size_t p = parts == 0 || std::size_t(parts) >= n ? n : std::size_t(parts);
  if (p == n) {
    domains_ = std::move(all);
    return *this;
  }
  // One GROUP domain per run of domains, grouped in one copy (the later groups leave the
  // domains of the earlier ones alone, and the tags of the others stay).
  LocalityDomain work(domain_);
  work.parts().clear();
  std::vector<std::string> tags;
  for (const auto& d : all) tags.push_back(d.domain_tag());
  domains_.clear();
  for (std::size_t g = 0; g < p; ++g) {
    const std::size_t first = g * n / p, last = (g + 1) * n / p;
    domains_.push_back(work.group(
        std::vector<std::string>(tags.begin() + long(first), tags.begin() + long(last))));
  }
  return *this;
}

std::vector<team_unit_t> TeamLocality::units() const {
  std::vector<team_unit_t> out;
  for (const auto& d : domains_) {
    if (!d.is_group() || split_scope_ == Scope::Global) {
      const auto mine = d.team_units();
      out.insert(out.end(), mine.begin(), mine.end());
      continue;
    }
    for (const auto& member : d.scope_domains(split_scope_)) {
      const auto mine = member.team_units();
      out.insert(out.end(), mine.begin(), mine.end());
    }
  }
  return out;
}

}  // namespace util
}  // namespace dash
