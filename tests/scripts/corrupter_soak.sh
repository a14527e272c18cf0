#!/usr/bin/env bash
# Randomised corrupter (label soak): while `particles` runs out of core, or between a checkpoint
# and its restart, one byte of a spill file or of the checkpoint is changed (or the checkpoint cut
# short) at a random moment. Every run must end with the checksum of an undisturbed run, or fail
# with a message that names the damaged file and says it is damaged; never with another
# checksum, another error, or a hang.
#   corrupter_soak.sh LAUNCH... PARTICLES    (LAUNCH: the launcher and its options, 2 units)
# DASH_CORRUPT_RUNS (default 16) runs, DASH_CORRUPT_SEED (default: from the clock, printed) seeds
# the choices; DASH_CORRUPT_VERBOSE=1 prints each run's damage and outcome. Prints "corrupter_soak: passed (...)" or each run that went wrong (exit 1).
set -uo pipefail
runs=${DASH_CORRUPT_RUNS:-16}
seed=${DASH_CORRUPT_SEED:-$(date +%s)}
RANDOM=$seed
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
launch=("$@")
common=(--protocol exchange --blocks-per-unit 4 --seeds 32)
problems=()

# Changes one byte (XOR with a random non-zero mask) of a random regular file below $1 (not the
# directories' .owner files), never creating one; or, with "truncate", cuts file $1 short.
corrupt() {
  python3 - "$@" <<'PY'
import os, random, sys
target = sys.argv[1]
rng = random.Random(int(sys.argv[2]))
if len(sys.argv) > 3 and sys.argv[3] == "truncate":
    size = os.path.getsize(target)
    os.truncate(target, rng.randrange(size)) if size else None
    print("truncated " + target); sys.exit(0)
files = [os.path.join(r, f) for r, _, fs in os.walk(target) for f in fs if f != ".owner"] \
    if os.path.isdir(target) else [target]
rng.shuffle(files)
for f in files:
    try:
        fd = os.open(f, os.O_RDWR | os.O_NOFOLLOW)  # never creates one
    except OSError:
        continue
    size = os.fstat(fd).st_size
    if size == 0:
        os.close(fd); continue
    at = rng.randrange(size)
    b = os.pread(fd, 1, at)
    os.pwrite(fd, bytes([b[0] ^ rng.randrange(1, 256)]), at)
    os.close(fd)
    print("changed byte %d of %s" % (at, f)); sys.exit(0)
print("no file to change")
PY
}

# Judges one run: $1 its output, $2 its exit status, $3 the damaged path (a prefix of it).
judge() {
  local out=$1 rc=$2 where=$3 what=$4
  local last
  last=$(grep -E '^time_s=' <<<"$out" | tail -n 1)
  if [[ $rc -eq 0 ]]; then
    [[ ${last##*checksum=} == "$reference" ]] ||
      problems+=("$what: exit 0 with '${last}', expected checksum=$reference")
    return
  fi
  grep -E "error: .*$where.*(damaged|checksum|truncated|trailer|extended)" <<<"$out" >/dev/null &&
    return
  problems+=("$what: exit $rc without a message naming $where as damaged: $(grep -m 3 -i error <<<"$out" | tr '\n' ' ')")
}

out=$(DASH_OOC_DIR=$d "${launch[@]}" "${common[@]}" 2>&1)
reference=$(grep -E '^time_s=' <<<"$out" | tail -n 1)
reference=${reference##*checksum=}
if [[ ! $reference =~ ^[0-9a-f]{16}$ ]]; then
  echo "corrupter_soak: the undisturbed run failed: $out"
  exit 1
fi
echo "corrupter_soak: seed $seed, $runs runs, reference checksum $reference"
right=0 reported=0
for ((r = 0; r < runs; ++r)); do
  rm -rf "${d:?}"/*
  mkdir -p "$d/spill"
  if ((r % 2 == 0)); then  # a spill file, while the run goes
    DASH_OOC_DIR=$d/spill "${launch[@]}" "${common[@]}" --mem-blocks 1 >"$d/out" 2>&1 &
    pid=$!
    sleep "0.$((RANDOM % 9))$((RANDOM % 10))"
    note=$(corrupt "$d/spill" "$RANDOM")
    wait "$pid"
    rc=$?
    what="run $r (spill, $note)"
    where=$d/spill
  else  # the checkpoint, between the save and the restart
    k=$((RANDOM % 4 + 1))
    DASH_OOC_DIR=$d/spill "${launch[@]}" "${common[@]}" --stop-after $k --save "$d/ckpt" \
      >"$d/out" 2>&1 || problems+=("run $r: the save failed: $(tail -n 2 "$d/out")")
    if ((RANDOM % 4 == 0)); then note=$(corrupt "$d/ckpt" "$RANDOM" truncate)
    else note=$(corrupt "$d/ckpt" "$RANDOM"); fi
    DASH_OOC_DIR=$d/spill "${launch[@]}" "${common[@]}" --restart "$d/ckpt" >"$d/out" 2>&1
    rc=$?
    what="run $r (checkpoint after $k rounds, $note)"
    where=$d/ckpt
  fi
  judge "$(cat "$d/out")" "$rc" "$where" "$what"
  if [[ -n ${DASH_CORRUPT_VERBOSE:-} ]]; then
    echo "$what: exit $rc: $(grep -m 1 -E 'error:|^time_s=' "$d/out")"
  fi
  if [[ $rc -eq 0 ]]; then right=$((right + 1)); else reported=$((reported + 1)); fi
done
if [[ ${#problems[@]} -gt 0 ]]; then
  printf 'corrupter_soak: %s\n' "${problems[@]}"
  echo "corrupter_soak: seed $seed (DASH_CORRUPT_SEED reruns it)"
  exit 1
fi
echo "corrupter_soak: passed ($right runs with the right checksum, $reported reported the damage; seed $seed)"
