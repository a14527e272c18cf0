#!/usr/bin/env bash
# A burst-buffer write whose drain fails at dash::finalize (DASH_IO_TEST_FAIL_DRAIN=1) must fail
# the program: every unit's dash::finalize throws, the launcher exits non-zero, nothing appears at
# the path and the node-local copy stays where the message says.
#   failed_drain_at_finalize.sh LAUNCH... CHILD    (LAUNCH: the launcher and its options)
# Prints "failed_drain_at_finalize: passed" or what went wrong (exit 1).
set -uo pipefail
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir "$d/node"
DASH_IO_NODE_DIR="$d/node" DASH_IO_TEST_FAIL_DRAIN=1 "$@" "$d/out" >"$d/log" 2>&1
rc=$?
cat "$d/log"
units=$(grep -c 'finalize failed: dash::finalize: .*node-local copy is kept' "$d/log")
copies=$(find "$d/node" -name 'out.bb.*' | wc -l)
problems=()
[[ $rc -ne 0 ]] || problems+=("the launcher exited 0")
[[ $units -eq 2 ]] || problems+=("$units units reported the failed drain, expected 2")
[[ $copies -gt 0 ]] || problems+=("no node-local copy kept")
[[ ! -e $d/out ]] || problems+=("a file appeared at the path")
grep -q "stays in '$d/node/out.bb." "$d/log" || problems+=("no message says where the copy stays")
if [[ ${#problems[@]} -gt 0 ]]; then
  printf 'failed_drain_at_finalize: %s\n' "${problems[@]}"
  exit 1
fi
echo "failed_drain_at_finalize: passed (exit $rc, $copies node-local files kept)"
