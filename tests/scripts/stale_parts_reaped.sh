#!/usr/bin/env bash
# The parts a subfiled dash::io::save leaves when its process dies on the way are removed by the
# next save of the same path on the same host; the parts of the file at the path, those of live
# processes and of other hosts, and names that are no part stay.
#   stale_parts_reaped.sh LAUNCH... CHILD    (LAUNCH: the launcher and its options; CHILD:
#                                             io_subfiled_save_child, run on 2 emulated nodes)
# Prints "stale_parts_reaped: passed" or what went wrong (exit 1).
set -uo pipefail
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
problems=()
run() {  # run MODE SEED EXPECTED-LINE
  local out
  out=$("${launch[@]}" "$1" "$d/f" "$2" 2>&1)
  grep -qx "$3" <<<"$out" || problems+=("$1 $2: expected '$3', got: $(tr '\n' ' ' <<<"$out")")
}
launch=("$@")
host=$(hostname)

run save 1 'saved [2-9] parts'
mapfile -t first < <(cd "$d" && ls f.part.* 2>/dev/null)
[[ ${#first[@]} -ge 2 ]] || problems+=("the first save made ${#first[@]} parts")
# Unit 0's pid, gone now: "f.part.<pid>.<host>.<hex>.<k>".
pid=${first[0]#f.part.}
pid=${pid%%.*}
# What a save of that pid killed on the way would leave, and what must stay.
dead="f.part.$pid.$host.ffffffffffffffff.000000"
keep=("f.part.1.$host.eeeeeeeeeeeeeeee.000000"        # pid 1 is alive
      "f.part.$pid.another-host.dddddddddddddddd.000000" # not ours to judge
      "f.part.$pid.$host.cccccccccccccccc"               # no part number: no part
      "g.part.$pid.$host.bbbbbbbbbbbbbbbb.000000")       # another path's
for name in "$dead" "${keep[@]}"; do cp "$d/${first[0]}" "$d/$name"; done

# A save that fails after it reaped: the dead save's part goes; the file's own parts (of the
# same gone pid) stay, so the first save still loads.
run fail-save 2 'save failed as expected'
[[ ! -e $d/$dead ]] || problems+=("the part of a dead save is still there")
for name in "${keep[@]}" "${first[@]}"; do
  [[ -e $d/$name ]] || problems+=("$name was removed")
done
run check 1 'values ok'

# A save that succeeds replaces the first file's parts with its own.
run save 3 'saved [2-9] parts'
for name in "${first[@]}"; do [[ ! -e $d/$name ]] || problems+=("the replaced part $name stays"); done
run check 3 'values ok'
left=$(cd "$d" && ls | grep -v -e '^f$' -e '^f\.part\.' -e '^g\.part\.' | tr '\n' ' ')
[[ -z $left ]] || problems+=("left in the directory: $left")

if [[ ${#problems[@]} -gt 0 ]]; then
  printf 'stale_parts_reaped: %s\n' "${problems[@]}"
  exit 1
fi
echo "stale_parts_reaped: passed (${#first[@]} parts per save)"
