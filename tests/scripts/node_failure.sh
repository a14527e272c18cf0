#!/usr/bin/env bash
# A whole host fails in the middle of a run across the namespace cluster (scripts/cluster.sh up,
# 2 nodes or more):
#
#   tests/scripts/node_failure.sh kill|link-down BUILD_DIR [LIMIT_SECONDS]
#
# Starts examples/particles on 2 nodes x 2 units (iexchange, 6 blocks per unit of which 2 stay in
# memory: the others spill into the unit's spill directory, DASH_OOC_DIR = the node-local
# directory /run/dash-cluster/node-local, so every node's spill directories are its own), with
# DART_WATCHDOG=5 DART_WATCHDOG_ACTION=abort. Once every unit computes:
#   kill       every process in dash-node1's namespace (its units and its MPI daemon) gets SIGKILL
#   link-down  dash-node1's network interface goes down (its processes stay, unreachable)
# Passes when the launcher ends non-zero within LIMIT_SECONDS (default 30) of the failure, its
# output names what happened (the MPI's message about the lost host or process, or a surviving
# unit's watchdog report), the units on dash-node0 are gone, and dash-node0's node-local
# directory holds no spill directory (MPICH: its launcher ends the survivors with SIGKILL; their
# directories must be gone after the next out-of-core run on that node). Afterwards it ends what is left on dash-node1, removes its
# spill directories and brings its link back up. Needs root.
set -u
mode=${1:-} build=${2:-} limit=${3:-30}
if [[ ($mode != kill && $mode != link-down) || -z $build ]]; then
  echo "usage: tests/scripts/node_failure.sh kill|link-down BUILD_DIR [LIMIT_SECONDS]" >&2
  exit 2
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
program="$build/examples/particles"
[[ -x $program ]] || { echo "node_failure: no $program" >&2; exit 2; }
nodes=$(cat /run/dash-cluster/nodes 2>/dev/null || echo 0)
[[ $nodes -ge 2 ]] || { echo "node_failure: needs a cluster of 2 nodes or more up" >&2; exit 2; }
local_dir=/var/lib/dash-cluster  # what each node sees at /run/dash-cluster/node-local

log=$(mktemp)
launcher=""
# Node 1 back to normal: its processes ended, its link up, its spill directories removed.
restore() {
  ip netns pids dash-node1 2>/dev/null | xargs -r kill -9 2>/dev/null
  ip -n dash-node1 link set eth0 up 2>/dev/null
  rm -rf "$local_dir"/dash-node1/dash-ooc-* 2>/dev/null
}
fail() {
  echo "node_failure ($mode): $*" >&2
  [[ -n $launcher ]] && kill -9 "$launcher" 2>/dev/null
  ip netns pids dash-node0 2>/dev/null | xargs -r kill -9 2>/dev/null
  restore
  rm -rf "$local_dir"/dash-node0/dash-ooc-* 2>/dev/null
  rm -f "$log"
  exit 1
}

# Units (processes named particles) on a node.
units_on() {
  local pid
  for pid in $(ip netns pids "dash-node$1" 2>/dev/null); do
    [[ $(cat "/proc/$pid/comm" 2>/dev/null) == particles ]] && echo "$pid"
  done
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }

rm -rf "$local_dir"/dash-node[01]/dash-ooc-* 2>/dev/null
DASH_OOC_DIR=/run/dash-cluster/node-local DART_WATCHDOG=5 DART_WATCHDOG_ACTION=abort \
  "$root/scripts/launch.sh" --nodes 2 -n 4 "$program" --protocol iexchange --slow-ratio 10 \
  --seeds 96 --blocks-per-unit 6 --mem-blocks 2 >"$log" 2>&1 &
launcher=$!

# Every unit computing: 4 units, each 0.5 s of CPU time past the parameter line.
for _ in $(seq 1 600); do
  kill -0 "$launcher" 2>/dev/null || fail "the job ended before it started computing: $(cat "$log")"
  grep -q '^particles: protocol=iexchange' "$log" && break
  sleep 0.1
done
mapfile -t all < <(units_on 0; units_on 1)
declare -A start_ticks
for pid in "${all[@]}"; do start_ticks[$pid]=$(cpu_ticks "$pid"); done
busy=0
for _ in $(seq 1 600); do
  kill -0 "$launcher" 2>/dev/null || fail "the job ended before the failure: $(cat "$log")"
  mapfile -t all < <(units_on 0; units_on 1)
  if [[ ${#all[@]} -eq 4 ]]; then
    busy=1
    for pid in "${all[@]}"; do
      (($(cpu_ticks "$pid") - ${start_ticks[$pid]:-0} >= $(getconf CLK_TCK) / 2)) || busy=0
    done
    [[ $busy -eq 1 ]] && break
  fi
  sleep 0.1
done
[[ $busy -eq 1 ]] || fail "found no 4 busy units (node 0: $(units_on 0 | xargs), node 1: $(units_on 1 | xargs))"
mapfile -t survivors < <(units_on 0)
ls -d "$local_dir"/dash-node0/dash-ooc-* >/dev/null 2>&1 ||
  fail "the units of dash-node0 made no spill directory in its node-local directory"

start=$(date +%s.%N)
if [[ $mode == kill ]]; then
  echo "node_failure: killing every process of dash-node1 ($(ip netns pids dash-node1 | wc -l))"
  ip netns pids dash-node1 | xargs -r kill -9
else
  echo "node_failure: taking dash-node1's link down"
  ip -n dash-node1 link set eth0 down
fi
ended=0
for _ in $(seq 1 $((limit * 10))); do
  if ! kill -0 "$launcher" 2>/dev/null; then
    ended=1
    break
  fi
  sleep 0.1
done
took=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.1f", e - s}')
[[ $ended -eq 1 ]] || fail "the job still runs ${limit} s after the failure; output: $(tail -20 "$log")"
wait "$launcher"
rc=$?
launcher=""
echo "node_failure: the job ended ${took} s after the failure, exit code $rc"
sed 's/^/  | /' "$log" | grep -v '^  | particles: \|^  | *$' | head -20
[[ $rc -ne 0 ]] || fail "exit code 0, expected non-zero"
# What names the failure. kill: the launcher's own message (OpenMPI 4.1 reports a daemon that
# died as one it could not start, or the lost daemon or killed process; MPICH's hydra a bad
# termination); link-down: a surviving unit's watchdog report, as the launcher cannot tell.
if [[ $mode == kill ]]; then
  expect='unable to reliably start one or more daemons|lost communication|exited on signal|BAD TERMINATION|process manager error'
else
  expect='^\[dart unit [01]\] WATCHDOG .*; aborting the job'
fi
grep -Eq "$expect" "$log" || fail "no line of the output matches '$expect'"
for _ in $(seq 1 50); do  # the survivors' spill directories go as they end
  left=""
  for pid in "${survivors[@]}"; do kill -0 "$pid" 2>/dev/null && left+=" $pid"; done
  [[ -z $left ]] && ! ls -d "$local_dir"/dash-node0/dash-ooc-* >/dev/null 2>&1 && break
  sleep 0.1
done
[[ -z $left ]] || fail "units of dash-node0 still run:$left"
left_dirs=$(ls -d "$local_dir"/dash-node0/dash-ooc-* 2>/dev/null | xargs)
if [[ -n $left_dirs ]]; then
  # OpenMPI ends the survivors with SIGTERM (the spill directory goes in the handler), a unit
  # whose watchdog aborts removes its own (dart_at_abort): nothing may be left. MPICH's hydra
  # ends the other units with SIGKILL (after a lost host or a unit's abort), which no process
  # can act on: the next unit that makes a spill directory on that node removes them (the
  # owner's lock is free).
  if ! ldd "$program" | grep -q libmpich; then
    fail "spill directories left on dash-node0: $left_dirs"
  fi
  echo "node_failure: left by units the launcher ended with SIGKILL: $left_dirs"
  DASH_OOC_DIR=/run/dash-cluster/node-local "$root/scripts/launch.sh" --nodes 1 -n 1 "$program" \
    --seeds 4 --blocks-per-unit 2 --mem-blocks 1 >/dev/null ||
    fail "the next run on dash-node0 failed"
  if ls -d "$local_dir"/dash-node0/dash-ooc-* >/dev/null 2>&1; then
    fail "the next run on dash-node0 did not remove them: $(ls -d "$local_dir"/dash-node0/dash-ooc-* | xargs)"
  fi
  echo "node_failure: the next run on dash-node0 removed them"
fi
restore
rm -f "$log"
echo "node_failure ($mode): passed"
