#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main example (stencil3d) on 8 units through
# launch.sh: 4 emulated nodes of 2 units (DART_VIRTUAL_NODE_SIZE=2) placed by the example
# topology file (a sparse allocation of a Cray-like machine), with hierarchical unit mapping.
# Each of those three flags keeps a value the caller set. Environment as for build.sh;
# arguments go to the example (e.g. --max-bytes 64K).
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

"$here/setup.sh"
"$here/build.sh"
example="$(dash_build_dir)/examples/stencil3d"
if [[ ! -x $example ]]; then
  echo "run.sh: $example was not built" >&2
  exit 1
fi
export DART_VIRTUAL_NODE_SIZE="${DART_VIRTUAL_NODE_SIZE:-2}"
export DART_TOPOLOGY_FILE="${DART_TOPOLOGY_FILE:-$DASH_ROOT/examples/stencil3d/sparse-allocation.txt}"
export DART_UNIT_MAPPING="${DART_UNIT_MAPPING:-hierarchical}"
exec "$here/launch.sh" -n 8 "$example" "$@"
