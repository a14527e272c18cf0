#!/usr/bin/env bash
# Kills one unit of a running job with SIGKILL and checks that the whole job ends, non-zero,
# within a time limit (a dead unit must not leave the others waiting forever).
#   kill_one_unit.sh <program name> <units> <limit seconds> <started regex> -- <launch command>...
# Starts the launch command in the background, waits until its output has a line matching
# <started regex> and then until <units> processes named <program name> descend from it and each
# has used 0.5 s more CPU time (the computation is under way), kills the second of them (by
# pid), and waits at most <limit> seconds for the launcher to exit. Exit code 0 when it ended
# non-zero in time; 1 otherwise (then it ends what it started).
set -u
prog=$1 units=$2 limit=$3 started=$4
shift 4
[[ ${1:-} == -- ]] && shift

log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" > >(tee "$log") &
launcher=$!

# Pids of processes named $prog that descend from the launcher, ascending.
ranks() {
  local pid ppid
  for pid in $(pgrep -x "$prog"); do
    ppid=$pid
    while [[ $ppid -gt 1 && $ppid -ne $launcher ]]; do
      ppid=$(awk '{print $4}' "/proc/$ppid/stat" 2>/dev/null || echo 1)
    done
    [[ $ppid -eq $launcher ]] && echo "$pid"
  done | sort -n
}
# CPU time of a process in clock ticks (utime + stime).
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }

fail() {
  echo "kill_one_unit: $*" >&2
  for pid in $(ranks); do kill -9 "$pid" 2>/dev/null; done
  kill -9 "$launcher" 2>/dev/null
  wait "$launcher" 2>/dev/null
  exit 1
}

for _ in $(seq 1 600); do  # up to 60 s for start-up
  kill -0 "$launcher" 2>/dev/null || fail "the job ended before it printed '$started'"
  grep -Eq -- "$started" "$log" && break
  sleep 0.1
done
grep -Eq -- "$started" "$log" || fail "no line matching '$started' within 60 s"
mapfile -t pids < <(ranks)
declare -A ticks_at_start
for pid in "${pids[@]}"; do ticks_at_start[$pid]=$(cpu_ticks "$pid"); done
ticks_needed=$(($(getconf CLK_TCK) / 2))
victim=""
for _ in $(seq 1 600); do
  kill -0 "$launcher" 2>/dev/null || fail "the job ended before a unit was killed"
  mapfile -t pids < <(ranks)
  if [[ ${#pids[@]} -eq $units ]]; then
    busy=1
    for pid in "${pids[@]}"; do
      [[ $(($(cpu_ticks "$pid") - ${ticks_at_start[$pid]:-0})) -ge $ticks_needed ]] || busy=0
    done
    if [[ $busy -eq 1 ]]; then
      victim=${pids[1]:-${pids[0]}}
      break
    fi
  fi
  sleep 0.1
done
[[ -n $victim ]] || fail "found no $units busy processes named $prog under the launcher"

echo "kill_one_unit: killing $prog pid $victim (of ${pids[*]}) with SIGKILL"
start=$(date +%s.%N)
kill -9 "$victim"
for _ in $(seq 1 $((limit * 10))); do
  if ! kill -0 "$launcher" 2>/dev/null; then
    wait "$launcher"
    rc=$?
    took=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.1f", e - s}')
    echo "kill_one_unit: the job ended ${took} s after the kill, exit code $rc"
    [[ $rc -ne 0 ]] || { echo "kill_one_unit: exit code 0, expected non-zero" >&2; exit 1; }
    exit 0
  fi
  sleep 0.1
done
fail "the job still runs ${limit} s after the kill"
