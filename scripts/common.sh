# shellcheck shell=bash
# Helpers shared by the scripts in this folder (sourced, not run).

DASH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Prints the build directory for DASH_MPI and DASH_SANITIZE: build/<mpi>[-<sanitizers>].
dash_build_dir() {
  local dir="$DASH_ROOT/build/${DASH_MPI:-openmpi}"
  if [[ -n "${DASH_SANITIZE:-}" ]]; then
    dir+="-${DASH_SANITIZE//,/-}"
  fi
  echo "$dir"
}
