#!/usr/bin/env bash
# The launcher: runs an MPI program of this project on N units.
#
#   scripts/launch.sh [-n N] [--nodes M [--map-by slot|node]] program [args...]
#
# N defaults to the number of cores (with --nodes: 2 per node). Picks the mpiexec of the MPI the
# program is linked with (ldd: libmpich -> mpiexec.mpich, libmpi.so -> mpiexec.openmpi; otherwise
# $DASH_MPI, default openmpi). For OpenMPI it adds --oversubscribe when N exceeds the cores and
# --allow-run-as-root when run as root. DASH_MPIEXEC replaces the launcher command as is (e.g.
# DASH_MPIEXEC="srun" on a cluster); then "-n N" is passed on and nothing is added. The
# environment (DART_*/DASH_* flags) is inherited, on every node.
#
# --nodes M (or DASH_CLUSTER_NODES=M) runs across the first M nodes of the namespace cluster of
# scripts/cluster.sh (which must be up with at least M nodes): mpiexec starts on dash-node0 and
# reaches the others through the cluster's remote shell, over TCP on the cluster's subnet.
# --map-by slot (default) gives each node consecutive units, as evenly as it gets (4 units on 3
# nodes: 2+1+1), --map-by node deals units out round robin. DASH_LAUNCH_VERBOSE=1 prints the
# mpiexec line with the MPI options used for that.
set -euo pipefail

usage() {
  echo "usage: scripts/launch.sh [-n N] [--nodes M [--map-by slot|node]] program [args...]" >&2
  exit 2
}
die() {
  echo "launch.sh: $*" >&2
  exit 2
}

nunits=""
nodes=${DASH_CLUSTER_NODES:-}
map_by=slot
while [[ $# -gt 0 ]]; do
  case $1 in
    -n) [[ $# -ge 2 && $2 =~ ^[1-9][0-9]*$ ]] || usage; nunits=$2; shift 2 ;;
    --nodes) [[ $# -ge 2 ]] || usage; nodes=$2; shift 2 ;;
    --map-by) [[ $# -ge 2 ]] || usage; map_by=$2; shift 2 ;;
    -h|--help) usage ;;
    --) shift; break ;;
    *) break ;;
  esac
done
[[ $# -ge 1 ]] || usage
program=$1
shift
[[ $map_by == slot || $map_by == node ]] || die "--map-by '$map_by' is not one of: slot, node"
if [[ -n $nodes ]]; then
  [[ $nodes =~ ^[1-9][0-9]*$ ]] || die "--nodes '$nodes' is not a number of nodes (1 or more)"
  [[ -z ${DASH_MPIEXEC:-} ]] || die "--nodes and DASH_MPIEXEC exclude each other"
  [[ -n $nunits ]] || nunits=$((2 * nodes))
else
  [[ -n $nunits ]] || nunits=$(nproc)
fi

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
[[ $mpi == openmpi || $mpi == mpich ]] || die "DASH_MPI='$mpi' is not one of: openmpi, mpich"
mpiexec="mpiexec.$mpi"
command -v "$mpiexec" >/dev/null || mpiexec=mpiexec  # not Debian: the one on PATH

if [[ -z $nodes ]]; then
  flags=()
  if [[ $mpi == openmpi ]]; then
    [[ $nunits -le $(nproc) ]] || flags+=(--oversubscribe)
    [[ $(id -u) -ne 0 ]] || flags+=(--allow-run-as-root)
  fi
  exec "$mpiexec" -n "$nunits" "${flags[@]}" "$program" "$@"
fi

# ---- across the namespace cluster ----------------------------------------------------------
state=/run/dash-cluster
up=$(cat "$state/nodes" 2>/dev/null || true)
[[ -n $up ]] || die "--nodes $nodes: no cluster is up (scripts/cluster.sh up $nodes)"
[[ $nodes -le $up ]] || die "--nodes $nodes: the cluster has $up nodes (scripts/cluster.sh down; scripts/cluster.sh up $nodes)"
[[ $(id -u) -eq 0 ]] || die "--nodes needs root (it enters the cluster's namespaces)"
program=$(realpath -e "$(command -v "$program" || echo "$program")") ||
  die "no program '$program'"
subnet=$(awk '$2 == "dash-node0" {split($1, a, "."); print a[1] "." a[2] "." a[3] ".0/24"}' \
         "$state/hosts")
# Units per node: node i gets base + 1 for i < extra, else base (as even as it gets).
base=$((nunits / nodes)) extra=$((nunits % nodes))
slots() { echo $((base + ($1 < extra ? 1 : 0))); }
used=$((nunits < nodes ? nunits : nodes))  # fewer units than nodes: the first N nodes
# The emulated nodes share this machine's cores, which neither MPI nor DART can see: waiting
# units yield the core (DART_WAIT, unless set; OpenMPI's mpi_yield_when_idle). Measured with
# dash_array on 2 nodes x 2 units: 58 s spinning, 7.5 s yielding.
export DART_WAIT=${DART_WAIT:-yield}
hostfile=$(mktemp /tmp/dash-launch-hosts.XXXXXX)
trap 'rm -f "$hostfile"' EXIT
flags=()
if [[ $mpi == openmpi ]]; then
  for ((i = 0; i < used; ++i)); do echo "dash-node$i slots=$(slots "$i")"; done >"$hostfile"
  flags+=(--hostfile "$hostfile" --map-by "$map_by" --bind-to none
          --mca plm_rsh_agent "$state/enter"
          --mca oob_tcp_if_include "$subnet" --mca btl_tcp_if_include "$subnet"
          --mca mpi_yield_when_idle 1)
  # One-sided across hosts (docs/running.md, "Running on several hosts"): osc sm for the windows of one
  # host; pt2pt (over ob1 and TCP) for windows that span hosts; osc ucx over UCX's TCP transport
  # only where pt2pt refuses (MPI_THREAD_MULTIPLE), as it is the less robust of the two.
  flags+=(--mca pml ob1 --mca btl self,vader,tcp --mca osc sm,pt2pt,ucx --mca osc_ucx_priority 5
          --mca opal_common_ucx_tls any --mca opal_common_ucx_devices any
          -x UCX_TLS=tcp,sm,self -x UCX_NET_DEVICES=eth0)
  [[ $(id -u) -ne 0 ]] || flags+=(--allow-run-as-root)
  # OpenMPI forwards only what -x names to the other nodes.
  while IFS='=' read -r name _; do
    flags+=(-x "$name")
  done < <(env | grep -E '^(DART_|DASH_|GTEST_|OMP_|ASAN_|UBSAN_|TSAN_|LSAN_|UCX_)[A-Za-z0-9_]*=' || true)
else
  if [[ $map_by == node ]]; then
    for ((i = 0; i < used; ++i)); do echo "dash-node$i:1"; done >"$hostfile"
  else
    for ((i = 0; i < used; ++i)); do echo "dash-node$i:$(slots "$i")"; done >"$hostfile"
  fi
  flags+=(-f "$hostfile" -launcher ssh -launcher-exec "$state/enter" -iface eth0)
fi
[[ ${DASH_LAUNCH_VERBOSE:-0} == 0 ]] || echo "launch.sh: $mpiexec -n $nunits ${flags[*]}" >&2
# mpiexec itself runs on node 0 (its network, host name, /etc/hosts and node-local directory),
# with the program's arguments passed through unchanged.
nsenter --net=/run/netns/dash-node0 unshare -u -m sh -c \
  'mount --bind "$0/hosts" /etc/hosts &&
   { [ ! -d /var/lib/dash-cluster/dash-node0 ] ||
     mount --bind /var/lib/dash-cluster/dash-node0 "$0/node-local"; } &&
   hostname dash-node0 && exec "$@"' "$state" \
  "$mpiexec" -n "$nunits" "${flags[@]}" "$program" "$@"
