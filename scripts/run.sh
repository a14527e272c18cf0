#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main example (hello) on 4 units through
# launch.sh. Environment as for build.sh; arguments go to the example.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

"$here/setup.sh"
"$here/build.sh"
example="$(dash_build_dir)/examples/hello"
if [[ ! -x $example ]]; then
  echo "run.sh: $example was not built" >&2
  exit 1
fi
exec "$here/launch.sh" -n 4 "$example" "$@"
