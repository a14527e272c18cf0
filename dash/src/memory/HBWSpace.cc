// dash::HBWSpace (dash/memory/HBWSpace.h): memkind's HBM (memory/Hbm.h), or
// ordinary memory where there is none.
#include <dash/Exception.h>
#include <dash/internal/Logging.h>
#include <dash/memory/HBWSpace.h>

#include <atomic>
#include <new>
#include <string>

#include "memory/Hbm.h"

namespace dash {

namespace {

// std::bad_alloc (what pmr callers catch) that says what ran out.
class HbwBadAlloc : public std::bad_alloc {
 public:
  explicit HbwBadAlloc(std::string what) : what_(std::move(what)) {}
  const char* what() const noexcept override { return what_.c_str(); }

 private:
  std::string what_;
};

}  // namespace

void internal::warn_hbw_fallback(const char* who) {
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true))
    DASH_LOG_WARN(who, "no high-bandwidth memory, allocating ordinary memory:",
                  HBWSpace::hbw_unavailable_reason());
}

bool HBWSpace::check_hbw_available() { return internal::hbm_available(); }

std::string HBWSpace::hbw_unavailable_reason() {
  std::string why;
  return internal::hbm_available(&why) ? std::string() : why;
}

void* HBWSpace::do_allocate(std::size_t bytes, std::size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0)
    throw exception::InvalidArgument("dash::HBWSpace::allocate: alignment " +
                                     std::to_string(alignment) + " is not a power of two");
  if (!check_hbw_available()) {
    internal::warn_hbw_fallback("dash::HBWSpace");
    return std::pmr::new_delete_resource()->allocate(bytes, alignment);
  }
  std::string why;
  void* p = internal::hbm_allocate(bytes, alignment, &why);
  if (p == nullptr) throw HbwBadAlloc("dash::HBWSpace::allocate: " + why);
  return p;
}

void HBWSpace::do_deallocate(void* p, std::size_t bytes, std::size_t alignment) {
  // Availability is fixed for the run: p came from where allocate took it.
  if (!check_hbw_available())
    std::pmr::new_delete_resource()->deallocate(p, bytes, alignment);
  else
    internal::hbm_free(p);
}

}  // namespace dash
