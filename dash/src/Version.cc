// dash::version() (dash/Version.h): the library's own copy of the version its headers had.
#include <dash/Version.h>

namespace dash {

const char* version() { return DASH_VERSION_STRING; }

}  // namespace dash
