// Must NOT compile: dash::Array elements must be trivially copyable; the
// static_assert names the requirement. Registered in CTest with WILL_FAIL.
#include <dash/Array.h>

#include <string>

int main() {
  dash::Array<std::string> a(10);
  return int(a.size());
}
