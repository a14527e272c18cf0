#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite with CTest, ending with
# CTest's summary line; the exit code is CTest's. Environment as for build.sh; arguments go to
# ctest (e.g. -R dart_put_get, -L '^np[12]$'). Tests labelled soak (long randomised runs) are
# left out unless an argument names that label (scripts/test.sh -L soak). DASH_TEST_JOBS: CTest's
# processor slots (default 2; a 4-unit run takes 4 slots or all there are).
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

"$here/setup.sh"
"$here/build.sh"
cd "$(dash_build_dir)"
skip_soak=(-LE '^soak$')
[[ " $* " == *soak* ]] && skip_soak=()
exec ctest --output-on-failure --no-tests=error --no-label-summary -j"${DASH_TEST_JOBS:-2}" --timeout 300 \
  "${skip_soak[@]}" "$@"
