#!/usr/bin/env bash
# The launcher: runs an MPI program of this project on N units.
#
#   scripts/launch.sh [-n N] program [args...]       N defaults to the number of cores
#
# Picks the mpiexec of the MPI the program is linked with (ldd: libmpich -> mpiexec.mpich,
# libmpi.so -> mpiexec.openmpi; otherwise $DASH_MPI, default openmpi). For OpenMPI it adds
# --oversubscribe when N exceeds the cores and --allow-run-as-root when run as root.
# DASH_MPIEXEC replaces the launcher command as is (e.g. DASH_MPIEXEC="srun" on a cluster);
# then "-n N" is passed on and nothing is added. The environment (DART_* flags) is inherited.
set -euo pipefail

usage() {
  echo "usage: scripts/launch.sh [-n N] program [args...]" >&2
  exit 2
}

nunits=$(nproc)
while [[ $# -gt 0 ]]; do
  case $1 in
    -n) [[ $# -ge 2 && $2 =~ ^[1-9][0-9]*$ ]] || usage; nunits=$2; shift 2 ;;
    -h|--help) usage ;;
    --) shift; break ;;
    *) break ;;
  esac
done
[[ $# -ge 1 ]] || usage
program=$1
shift

if [[ -n ${DASH_MPIEXEC:-} ]]; then
  read -r -a launcher <<<"$DASH_MPIEXEC"
  exec "${launcher[@]}" -n "$nunits" "$program" "$@"
fi

mpi=${DASH_MPI:-openmpi}
if libraries=$(ldd "$(command -v "$program" || echo "$program")" 2>/dev/null); then
  if grep -q 'libmpich' <<<"$libraries"; then
    mpi=mpich
  elif grep -q 'libmpi\.so' <<<"$libraries"; then
    mpi=openmpi
  fi
fi

flags=()
if [[ $mpi == openmpi ]]; then
  if [[ $nunits -gt $(nproc) ]]; then
    flags+=(--oversubscribe)
  fi
  if [[ $(id -u) -eq 0 ]]; then
    flags+=(--allow-run-as-root)
  fi
elif [[ $mpi != mpich ]]; then
  echo "launch.sh: DASH_MPI='$mpi' is not one of: openmpi, mpich" >&2
  exit 2
fi
mpiexec="mpiexec.$mpi"
command -v "$mpiexec" >/dev/null || mpiexec=mpiexec  # not Debian: the one on PATH
exec "$mpiexec" -n "$nunits" "${flags[@]}" "$program" "$@"
