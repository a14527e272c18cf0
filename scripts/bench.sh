#!/usr/bin/env bash
# Builds and runs every benchmark binary in build/<mpi>/bench on 2 units through launch.sh,
# writing Google Benchmark JSON to bench/results/<name>.json (plus one file per extra run in
# the table below; with DASH_MPI=mpich <name>.mpich.json and so on), then scripts/bench_report.py
# writes bench/results/summary.md and, when matplotlib is available, PNG plots into
# bench/results/plots/. Each run is announced with its place among all ([k/N]) and how long it
# took the last time (bench/results/durations.tsv, updated as runs finish).
#
#   scripts/bench.sh [name...] [-- benchmark-args...]
#
# Names restrict the run to those binaries; benchmark-args go to every binary (e.g.
# --benchmark_filter=get). Environment: DASH_MPI as for build.sh, DASH_BENCH_UNITS (default
# 2), DASH_BENCH_PLOTS=0 to skip installing python3-matplotlib for the plots.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

# Extra runs: "<binary> <suffix> <VAR=value>..." runs <binary> again with that environment
# (UNITS=<n>: on n units), writing bench/results/<binary>.<suffix>.json. Every binary also runs once as is.
# BENCHMARK_FILTER (Google Benchmark reads its flags from the environment too) restricts an
# extra run to the benchmarks the variable changes; a --benchmark_filter argument overrides it.
extra_runs=(
  "dart_put_get shm_off DART_SHARED_WINDOWS=0"
  "dart_put_get vnode1 DART_VIRTUAL_NODE_SIZE=1"
  "containers shm_off DART_SHARED_WINDOWS=0 BENCHMARK_FILTER=random_read"
  "copy vnode1 DART_VIRTUAL_NODE_SIZE=1"
  "copy shm_off DART_SHARED_WINDOWS=0"
  "copy_nd vnode1 DART_VIRTUAL_NODE_SIZE=1"
  "halo vnode1 DART_VIRTUAL_NODE_SIZE=1"
  "halo np4 UNITS=4 BENCHMARK_FILTER=BM_halo_copy/n:4000"
  "copy unbound OMPI_MCA_hwloc_base_binding_policy=none BENCHMARK_FILTER=overlap"
  "algorithms shm_off DART_SHARED_WINDOWS=0 BENCHMARK_FILTER=transform_fetch"
  "blocks np4 UNITS=4"
  "io np4 UNITS=4"
  "io np4_vnode1 UNITS=4 DART_VIRTUAL_NODE_SIZE=1 BENCHMARK_FILTER=BM_write/"
  "io np4_vnode1_subfiling UNITS=4 DART_VIRTUAL_NODE_SIZE=1 DASH_IO_SUBFILING=1 BENCHMARK_FILTER=BM_write/"
  "stencil np8_vnode2 UNITS=8 DART_VIRTUAL_NODE_SIZE=2 DART_UNIT_MAPPING=hierarchical DART_TOPOLOGY_FILE=$DASH_ROOT/examples/stencil3d/sparse-allocation.txt BENCHMARK_FILTER=exchange"
  "stencil np12_vnode3 UNITS=12 DART_VIRTUAL_NODE_SIZE=3 DART_UNIT_MAPPING=hierarchical BENCHMARK_FILTER=exchange"
)

names=()
while [[ $# -gt 0 && $1 != -- ]]; do names+=("$1"); shift; done
[[ ${1:-} == -- ]] && shift
bench_args=("$@")

if [[ -n ${DASH_SANITIZE:-} ]]; then
  echo "bench.sh: ignoring DASH_SANITIZE=$DASH_SANITIZE (benchmarks run uninstrumented)"
  unset DASH_SANITIZE
fi
"$here/setup.sh"
DASH_BUILD_BENCH=ON DASH_BENCH_COMPILE_CHECK=OFF "$here/build.sh"
bench_dir="$(dash_build_dir)/bench"
results="$DASH_ROOT/bench/results"
mkdir -p "$results"

binaries=()
if [[ -d $bench_dir ]]; then
  while IFS= read -r binary; do binaries+=("$binary"); done < <(
    find "$bench_dir" -maxdepth 1 -type f -executable | sort)
fi
if [[ ${#binaries[@]} -eq 0 ]]; then
  echo "bench.sh: no benchmark binaries in $bench_dir yet"
  exit 0
fi

# Runs one binary with extra environment, writing results/<output>.json. A UNITS=<n> among the
# environment settings sets the unit count of that run instead.
run_bench() {
  local binary=$1 output=$2 units=${DASH_BENCH_UNITS:-2}
  shift 2
  local settings=()
  for setting in "$@"; do
    if [[ $setting == UNITS=* ]]; then units=${setting#UNITS=}; else settings+=("$setting"); fi
  done
  # MPICH's launcher binds nothing by default, and its processes then share cores now and then
  # (figures that change several-fold from run to run); OpenMPI's binds to cores up to 2 units.
  # (Not for the runs that measure without binding.)
  if [[ ${DASH_MPI:-openmpi} == mpich && $units -le $(nproc) && -z ${DASH_MPIEXEC:-} &&
        " ${settings[*]} " != *binding_policy=none* ]]; then
    settings+=("DASH_MPIEXEC=mpiexec.mpich -bind-to core")
  fi
  done_runs=$((done_runs + 1))
  local last
  last=$(awk -F'\t' -v o="$output" '$1 == o { s = $2 } END { if (s != "") print s }' \
    "$durations" 2>/dev/null || true)
  echo "bench.sh: [$done_runs/$total_runs] $output ($units units${settings[*]:+, ${settings[*]}})" \
    "${last:+- took $last s last time}"
  local start=$SECONDS
  env "${settings[@]}" "$here/launch.sh" -n "$units" "$binary" \
    --benchmark_out="$results/$output.json" --benchmark_out_format=json \
    --benchmark_color=false "${bench_args[@]}"
  local took=$((SECONDS - start))
  echo "bench.sh: [$done_runs/$total_runs] $output took $took s (all so far: $((SECONDS - bench_start)) s)"
  # One line per result file: its name, seconds, when (the newest replaces the older).
  { grep -v -P "^\Q$output\E\t" "$durations" 2>/dev/null || true
    printf '%s\t%s\t%s\n' "$output" "$took" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"; } \
    | sort >"$durations.new"
  mv "$durations.new" "$durations"
}

# Results of MPICH runs land in <name>[.<suffix>].mpich.json (their own summary sections, next
# to OpenMPI's).
mpi_suffix=""
[[ ${DASH_MPI:-openmpi} == mpich ]] && mpi_suffix=".mpich"

# How long each result file's run took last time (bench/results/durations.tsv, kept in the
# repository), shown before each run, with the progress through all of them.
durations="$results/durations.tsv"
selected=()
for binary in "${binaries[@]}"; do
  name=$(basename "$binary")
  [[ ${#names[@]} -gt 0 && " ${names[*]} " != *" $name "* ]] && continue
  selected+=("$name")
done
total_runs=${#selected[@]}
for name in "${selected[@]}"; do
  for run in "${extra_runs[@]}"; do
    read -r -a fields <<<"$run"
    [[ ${fields[0]} == "$name" ]] && total_runs=$((total_runs + 1))
  done
done
done_runs=0
bench_start=$SECONDS

ran=0
for binary in "${binaries[@]}"; do
  name=$(basename "$binary")
  if [[ ${#names[@]} -gt 0 && " ${names[*]} " != *" $name "* ]]; then
    continue
  fi
  ran=$((ran + 1))
  run_bench "$binary" "$name$mpi_suffix"
  for run in "${extra_runs[@]}"; do
    read -r -a fields <<<"$run"
    if [[ ${fields[0]} == "$name" ]]; then
      run_bench "$binary" "$name.${fields[1]}$mpi_suffix" "${fields[@]:2}"
    fi
  done
done

if [[ $ran -eq 0 ]]; then
  echo "bench.sh: no benchmark named ${names[*]} in $bench_dir" >&2
  exit 1
fi

python=/usr/bin/python3  # Debian's, where setup.sh installs python3-matplotlib
[[ -x $python ]] || python=python3
if [[ ${DASH_BENCH_PLOTS:-1} != 0 ]] && ! "$python" -c 'import matplotlib' 2>/dev/null; then
  "$here/setup.sh" python3-matplotlib || echo "bench.sh: python3-matplotlib not installed, no plots"
fi
"$python" "$here/bench_report.py" "$results"
echo "bench.sh: $ran benchmark binaries, $done_runs runs in $((SECONDS - bench_start)) s" \
  "(per run: $durations)"
