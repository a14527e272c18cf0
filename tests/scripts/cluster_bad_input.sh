#!/usr/bin/env bash
# Bad input to scripts/cluster.sh and scripts/launch.sh --nodes: one line on stderr, exit code 2,
# and the cluster's state exactly as before (nothing half-made, nothing removed).
#
#   tests/scripts/cluster_bad_input.sh none      no cluster may be up (checks the refusals then)
#   tests/scripts/cluster_bad_input.sh up N      a cluster of N nodes is up (N < 64)
#
# Prints one line per check and "cluster_bad_input: all N checks passed"; exit 1 on a failure.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cluster="$root/scripts/cluster.sh"
launch="$root/scripts/launch.sh"
mode=${1:-}
checks=0
failed=0

# What `ip netns` and /run/dash-cluster hold: must not change across a refused command.
state() {
  ip netns list 2>/dev/null | awk '{print $1}' | grep -E '^dash-' | sort | tr '\n' ' '
  cat /run/dash-cluster/nodes 2>/dev/null
}

# expect_refusal "what" command...: exit 2, exactly one line on stderr, state unchanged.
expect_refusal() {
  local what=$1
  shift
  local before after err rc
  before=$(state)
  err=$("$@" 2>&1 >/dev/null)
  rc=$?
  after=$(state)
  checks=$((checks + 1))
  local lines
  lines=$(printf '%s' "$err" | grep -c '')
  if [[ $rc -eq 2 && $lines -eq 1 && $before == "$after" ]]; then
    echo "ok   $what: $err"
  else
    echo "FAIL $what: exit $rc, $lines lines on stderr, state '$before' -> '$after': $err"
    failed=$((failed + 1))
  fi
}

case $mode in
  none)
    [[ ! -e /run/dash-cluster/nodes ]] || { echo "cluster_bad_input: a cluster is up" >&2; exit 2; }
    expect_refusal "up 0" "$cluster" up 0
    expect_refusal "up 1000" "$cluster" up 1000
    expect_refusal "up -1" "$cluster" up -1
    expect_refusal "up two" "$cluster" up two
    expect_refusal "rate that does not parse" "$cluster" up 2 --link-rate fast
    expect_refusal "rate of zero" "$cluster" up 2 --link-rate 0mbit
    expect_refusal "rate missing" "$cluster" up 2 --link-rate
    expect_refusal "unknown command" "$cluster" sideways
    expect_refusal "enter with no cluster" "$cluster" enter 0 true
    expect_refusal "launch --nodes 3 with no cluster" "$launch" --nodes 3 -n 3 /bin/true
    expect_refusal "launch --nodes 0" "$launch" --nodes 0 /bin/true
    expect_refusal "launch --map-by socket" "$launch" --nodes 2 --map-by socket /bin/true
    ;;
  up)
    n=${2:?usage: cluster_bad_input.sh up N}
    expect_refusal "up with another size" "$cluster" up $((n + 1))
    expect_refusal "launch on more nodes than are up" "$launch" --nodes $((n + 1)) /bin/true
    expect_refusal "enter a node that does not exist" "$cluster" enter "$n" true
    expect_refusal "rate that does not parse, cluster up" "$cluster" up "$n" --link-rate 1gigabit
    ;;
  *)
    echo "usage: tests/scripts/cluster_bad_input.sh none | up N" >&2
    exit 2
    ;;
esac
if [[ $failed -ne 0 ]]; then
  echo "cluster_bad_input: $failed of $checks checks failed"
  exit 1
fi
echo "cluster_bad_input: all $checks checks passed"
