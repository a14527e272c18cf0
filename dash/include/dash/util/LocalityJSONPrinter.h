// dash::util::LocalityJSONPrinter: DART's locality records (dart_domain_locality_t,
// dart_unit_locality_t, dart_hwinfo_t) and LocalityDomain as JSON text, collected with << and
// read with str() (DASH's class and calls; the layout is ours). A domain prints its fields and
// then, under "domains", every domain below it, indented by depth:
//
//   {
//     "tag": ".", "scope": "global", "level": 0, "relative_index": 0, "global_index": 0,
//     "host": "vm", "team": 0, "num_nodes": 1, "node_id": 0, "num_cores": 2,
//     "units": [0, 1],
//     "domains": [
//       { "tag": ".0", "scope": "node", ... }
//     ]
//   }
//
// The global operator<< for the three DART records writes the same text to any stream. All
// calls are local; a domain costs O(size of its subtree).
#ifndef DASH__UTIL__LOCALITY_JSON_PRINTER_H_
#define DASH__UTIL__LOCALITY_JSON_PRINTER_H_

#include <dart/dart_locality.h>
#include <dash/util/LocalityDomain.h>
#include <dash/util/LocalityScope.h>

#include <cstdio>
#include <ostream>
#include <sstream>
#include <string>

namespace dash {
namespace util {
namespace detail {

// s as a JSON string (quotes, backslashes and control characters escaped).
inline std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\u%04x", c);
      out += hex;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

inline const char* json_scope(dart_locality_scope_t scope) {
  return locality_scope_name(static_cast<LocalityScope>(scope));
}

template <class T>
void json_array(std::ostream& os, const T* values, int n) {
  os << "[";
  for (int i = 0; i < n; ++i) os << (i ? ", " : "") << values[i];
  os << "]";
}

inline void json_hwinfo(std::ostream& os, const dart_hwinfo_t& hw, const std::string& indent) {
  const std::string in = indent + "  ";
  os << "{\n"
     << in << "\"host\": " << json_string(hw.host) << ", \"num_cores\": " << hw.num_cores
     << ", \"num_numa\": " << hw.num_numa << ", \"num_sockets\": " << hw.num_sockets << ",\n"
     << in << "\"numa_id\": " << hw.numa_id << ", \"core_id\": " << hw.core_id
     << ", \"cpu_id\": " << hw.cpu_id << ", \"min_threads\": " << hw.min_threads
     << ", \"max_threads\": " << hw.max_threads << ",\n"
     << in << "\"min_cpu_mhz\": " << hw.min_cpu_mhz << ", \"max_cpu_mhz\": " << hw.max_cpu_mhz
     << ", \"max_shmem_mbps\": " << hw.max_shmem_mbps << ",\n"
     << in << "\"cache_sizes\": ";
  json_array(os, hw.cache_sizes, DART_LOCALITY_MAX_CACHE_LEVELS);
  os << ", \"cache_line_sizes\": ";
  json_array(os, hw.cache_line_sizes, DART_LOCALITY_MAX_CACHE_LEVELS);
  os << ", \"cache_ids\": ";
  json_array(os, hw.cache_ids, DART_LOCALITY_MAX_CACHE_LEVELS);
  os << ",\n" << in << "\"scopes\": [";
  for (int i = 0; i < hw.num_scopes && i < DART_LOCALITY_MAX_DOMAIN_SCOPES; ++i)
    os << (i ? ", " : "") << "{\"scope\": \"" << json_scope(hw.scopes[i].scope)
       << "\", \"index\": " << hw.scopes[i].index << "}";
  os << "]\n" << indent << "}";
}

inline void json_unit(std::ostream& os, const dart_unit_locality_t& u, const std::string& indent) {
  os << "{\n"
     << indent << "  \"unit\": " << u.unit.id << ", \"team\": " << u.team
     << ", \"domain_tag\": " << json_string(u.domain_tag) << ",\n"
     << indent << "  \"hwinfo\": ";
  json_hwinfo(os, u.hwinfo, indent + "  ");
  os << "\n" << indent << "}";
}

inline void json_domain(std::ostream& os, const dart_domain_locality_t& d,
                        const std::string& indent) {
  const std::string in = indent + "  ";
  os << "{\n"
     << in << "\"tag\": " << json_string(d.domain_tag) << ", \"scope\": \"" << json_scope(d.scope)
     << "\", \"level\": " << d.level << ", \"relative_index\": " << d.relative_index
     << ", \"global_index\": " << d.global_index << ",\n"
     << in << "\"host\": " << json_string(d.host) << ", \"team\": " << d.team
     << ", \"num_nodes\": " << d.num_nodes << ", \"node_id\": " << d.node_id
     << ", \"num_cores\": " << d.num_cores << ", \"is_symmetric\": " << d.is_symmetric << ",\n"
     << in << "\"units\": [";
  for (int i = 0; i < d.num_units; ++i) os << (i ? ", " : "") << d.unit_ids[i].id;
  os << "]";
  if (d.num_domains > 0) {
    os << ",\n" << in << "\"domains\": [\n";
    for (int i = 0; i < d.num_domains; ++i) {
      os << in << "  ";
      json_domain(os, *d.children[i], in + "  ");
      os << (i + 1 < d.num_domains ? ",\n" : "\n");
    }
    os << in << "]";
  }
  os << "\n" << indent << "}";
}

// A LocalityDomain: its record (GROUP domains included).
inline void json_locality_domain(std::ostream& os, const LocalityDomain& d,
                                 const std::string& indent) {
  json_domain(os, d.dart_type(), indent);
}

}  // namespace detail

class LocalityJSONPrinter {
 public:
  LocalityJSONPrinter() = default;

  // Appends text as it is.
  LocalityJSONPrinter& operator<<(const std::string& text) {
    os_ << text;
    return *this;
  }
  LocalityJSONPrinter& operator<<(const dart_hwinfo_t& hwinfo) {
    detail::json_hwinfo(os_, hwinfo, "");
    return *this;
  }
  LocalityJSONPrinter& operator<<(const dart_unit_locality_t& unit) {
    detail::json_unit(os_, unit, "");
    return *this;
  }
  // The domain and everything below it.
  LocalityJSONPrinter& operator<<(const dart_domain_locality_t& domain) {
    detail::json_domain(os_, domain, "");
    return *this;
  }
  LocalityJSONPrinter& operator<<(const LocalityDomain& domain) {
    detail::json_locality_domain(os_, domain, "");
    return *this;
  }

  // Everything written so far.
  std::string str() const { return os_.str(); }

 private:
  std::ostringstream os_;
};

}  // namespace util
}  // namespace dash

// DART's locality records as the printer writes them (DASH declares these in Locality.h).
inline std::ostream& operator<<(std::ostream& os, const dart_domain_locality_t& domain) {
  dash::util::detail::json_domain(os, domain, "");
  return os;
}
inline std::ostream& operator<<(std::ostream& os, const dart_unit_locality_t& unit) {
  dash::util::detail::json_unit(os, unit, "");
  return os;
}
inline std::ostream& operator<<(std::ostream& os, const dart_hwinfo_t& hwinfo) {
  dash::util::detail::json_hwinfo(os, hwinfo, "");
  return os;
}

#endif  // DASH__UTIL__LOCALITY_JSON_PRINTER_H_
