#!/usr/bin/env bash
# Configures (CMake, Ninja) and builds into build/<mpi>[-<sanitizers>].
# Environment: DASH_MPI=openmpi|mpich (default openmpi), DASH_SANITIZE (e.g. address,undefined;
# default empty), DASH_SANITIZE_SKIP (checks of those left out, e.g. alignment,null; default
# empty), BUILD_TYPE (default RelWithDebInfo), DASH_BUILD_TARGETS (space-separated targets
# to build; default all), DASH_BUILD_BENCH and DASH_BUILD_EXAMPLES (ON or OFF: build bench/,
# examples/; default ON), DASH_BENCH_COMPILE_CHECK (ON: bench/ compiled at -O0 as a check
# only, its programs refuse to run; default OFF), DASH_TEST_VARIANT_UNITS (unit count of the
# suites' variant runs; default 3). Arguments go to the CMake configure step.
# Prints the build directory on its last line.
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

mpi=${DASH_MPI:-openmpi}
if [[ $mpi != openmpi && $mpi != mpich ]]; then
  echo "build.sh: DASH_MPI='$mpi' is not one of: openmpi, mpich" >&2
  exit 1
fi
build_type=${BUILD_TYPE:-RelWithDebInfo}
dir=$(dash_build_dir)

mkdir -p "$dir"
if ! cmake -S "$DASH_ROOT" -B "$dir" -G Ninja -DDASH_MPI="$mpi" \
     -DDASH_SANITIZE="${DASH_SANITIZE:-}" -DDASH_SANITIZE_SKIP="${DASH_SANITIZE_SKIP:-}" \
     -DDASH_BUILD_BENCH="${DASH_BUILD_BENCH:-ON}" \
     -DDASH_BENCH_COMPILE_CHECK="${DASH_BENCH_COMPILE_CHECK:-OFF}" \
     -DDASH_BUILD_EXAMPLES="${DASH_BUILD_EXAMPLES:-ON}" \
     -DDASH_TEST_VARIANT_UNITS="${DASH_TEST_VARIANT_UNITS:-3}" \
     -DCMAKE_BUILD_TYPE="$build_type" "$@" \
     >"$dir/configure.log"; then
  echo "build.sh: configuring $dir failed (full log: $dir/configure.log)" >&2
  exit 1
fi
grep -- "-- DASH_MPI=" "$dir/configure.log" | sed 's/^-- /build.sh: /' || true
if [[ -n ${DASH_BUILD_TARGETS:-} ]]; then
  read -ra targets <<<"$DASH_BUILD_TARGETS"
  cmake --build "$dir" --target "${targets[@]}"
else
  cmake --build "$dir"
fi
echo "build.sh: built $dir"
