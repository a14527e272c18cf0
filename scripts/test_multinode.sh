#!/usr/bin/env bash
# The test suite across hosts: builds (as scripts/test.sh does, for DASH_MPI), brings up a
# namespace cluster of 3 nodes when none is up (and takes it down again at the end), and runs
# scripts/multinode_tests.py on the build: every plain 2-, 3- and 4-unit run on 2 nodes x 1,
# 3 nodes x 1, 2 nodes x 2 and 3 nodes x 2+1+1 units; first the bad-input checks of cluster.sh
# and launch.sh (tests/scripts/cluster_bad_input.sh); last, without arguments, a whole node
# failing mid-run, killed and cut off the network (tests/scripts/node_failure.sh kill,
# link-down). Arguments go to multinode_tests.py (e.g. -E '\.np4$', --variants); those that pick
# runs by name or only list them (-R, --list) leave the node failures out; then, if runs failed,
# the lines that say why (multinode-logs/summary.txt of the build). Needs root (network
# namespaces). Exit code: non-zero when any part failed.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

if [[ $(id -u) -ne 0 ]]; then
  echo "test_multinode.sh: needs root (the cluster is made of network namespaces)" >&2
  exit 2
fi
"$here/setup.sh"
"$here/build.sh" >/dev/null
checks="$DASH_ROOT/tests/scripts/cluster_bad_input.sh"
made_cluster=0
if ! "$here/cluster.sh" status >/dev/null 2>&1; then
  "$checks" none
  "$here/cluster.sh" up 3
  made_cluster=1
fi
trap '[[ $made_cluster -eq 0 ]] || "$here/cluster.sh" down' EXIT
"$checks" up "$(cat /run/dash-cluster/nodes)"
rc=0
summary="$(dash_build_dir)/multinode-logs/summary.txt"
rm -f "$summary"
"$here/multinode_tests.py" "$(dash_build_dir)" "$@" || rc=$?
node_failures=1
for arg in "$@"; do
  case $arg in -R* | --list) node_failures=0 ;; esac
done
if [[ $node_failures -eq 1 ]]; then
  for mode in kill link-down; do
    "$DASH_ROOT/tests/scripts/node_failure.sh" "$mode" "$(dash_build_dir)" 40 || rc=1
  done
fi
# Why runs failed, last (a log's tail is what CI shows).
if [[ -s $summary ]]; then
  echo "test_multinode.sh: runs that failed across hosts, and why:"
  cat "$summary"
fi
exit "$rc"
