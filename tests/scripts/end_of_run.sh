#!/usr/bin/env bash
# How a program ends when it goes wrong: an exception escaping main on one unit, a return
# without dash::finalize, a container made before dash::init. Each must end the job with a
# non-zero exit code and one line per failing unit saying what happened, without the C++
# runtime's "terminate called" text or an abort signal's backtrace.
#   end_of_run.sh LAUNCH... CHILD    (LAUNCH: the launcher and its options; 2 units)
# Prints "end_of_run: passed" or what went wrong (exit 1).
set -uo pipefail
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
problems=()
# check <mode> <regex that must match>...: runs the child in <mode>.
check() {
  local mode=$1 rc
  shift
  timeout 60 "${launch[@]}" "$mode" >"$d/$mode.log" 2>&1
  rc=$?
  echo "--- $mode (exit $rc)"
  cat "$d/$mode.log"
  [[ $rc -ne 0 ]] || problems+=("$mode: the launcher exited 0")
  [[ $rc -ne 124 ]] || problems+=("$mode: the job hung (timeout)")
  for want in "$@"; do
    grep -Eq -- "$want" "$d/$mode.log" || problems+=("$mode: no line matching '$want'")
  done
  if grep -Eq 'terminate called|received signal|Signal: Aborted' "$d/$mode.log"; then
    problems+=("$mode: the C++ runtime's or the signal handler's text instead of one line")
  fi
}
launch=("$@")
check throw-one '^\[unit 1\] dash::exception::InvalidArgument: thrown on unit 1$'
check no-finalize '^\[unit [01]\] dash: the program ended without dash::finalize\(\)'
check before-init '\] dash::exception::NotInitialized: .*call dash::init first'
if [[ ${#problems[@]} -gt 0 ]]; then
  printf 'end_of_run: %s\n' "${problems[@]}"
  exit 1
fi
echo "end_of_run: passed"
