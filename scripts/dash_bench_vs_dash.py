#!/usr/bin/env python3
"""DASH's own benchmark programs, built against this library and against DASH, timed side by side.

    scripts/dash_bench_vs_dash.py --examples DIR --prefix PREFIX --dash-build BUILD
                                  [--units 2 4] [--reps 5] [--timeout 120] [--only REGEX]
                                  [--work DIR] [--out bench/results/dash_benchmarks.md]
                                  [--library-commit C] [--dash-repo GITDIR] [--reuse]

DIR holds DASH's `dash/examples` (an export of DASH's repository, as for
scripts/dash_dropin.py). BUILD is a build directory of DASH itself (CMake, Ninja; see
"Building DASH" below) in which its `bench.*.mpi` targets have been built. PREFIX is an
installed prefix of this library (bin/dash-mpicxx). Nothing of DASH's enters this repository:
sources are compiled where they lie, binaries and run directories go to --work.

For every `bench.*` program that runs cleanly in scripts/dash_dropin.py's terms (the ones its
NOTES say cannot run here are left out, with the reason):

    flags:   the compiler flags DASH's build gives that program (`ninja -t commands`), without
             DASH's include paths and definitions: its optimisation and target flags
             (-O3 -Ofast -march=native -fopenmp ... in a Release build)
    ours:    PREFIX/bin/dash-mpicxx <those flags> <sources> -o <work>/ours/<name>
    DASH's:  BUILD/bin/<name>.mpi as DASH's build made it (or BUILD's ninja output path)
    runs:    --reps rounds; in each round, for every unit count and program, both binaries
             run one after the other with the arguments of TIMING_ARGS below or else
             scripts/dash_dropin.py's (ARGS), the order alternating between rounds (the
             launcher of the prefix's MPI, e.g. mpiexec.openmpi --oversubscribe: DASH's build
             must use the same MPI; --timeout seconds each); the time is the wall time of the
             whole run (start-up, the program's own loops, finalize: what the program's user
             waits for)
    report:  per program and unit count the median of each side's times and their ratio
             (ours / DASH's; below 1 is faster here), the spread (min-max) of each side, and
             both runs' exit status; a run that fails is named, not timed

Building DASH (its optional externals off, shared windows on, as on these machines):

    git -C DASH.git archive HEAD | tar -x -C /tmp/dash-full
    cmake -S /tmp/dash-full -B /tmp/dash-build -G Ninja -DCMAKE_BUILD_TYPE=Release \\
        -DDART_IMPLEMENTATIONS=mpi -DENABLE_SHARED_WINDOWS=ON -DENABLE_ASSERTIONS=OFF \\
        -DENABLE_LOGGING=OFF -DENABLE_TEST_LOGGING=OFF -DENABLE_LIBNUMA=OFF -DENABLE_HWLOC=OFF \\
        -DENABLE_HWLOC_PCI=OFF -DENABLE_PAPI=OFF -DENABLE_MKL=OFF -DENABLE_BLAS=OFF \\
        -DENABLE_LAPACK=OFF -DENABLE_SCALAPACK=OFF -DENABLE_PLASMA=OFF -DENABLE_HDF5=OFF \\
        -DENABLE_MEMKIND=OFF -DBUILD_TESTS=OFF -DBUILD_EXAMPLES=ON \\
        -DMPI_C_COMPILER=mpicc.openmpi -DMPI_CXX_COMPILER=mpicxx.openmpi
    ninja -C /tmp/dash-build $(ninja -C /tmp/dash-build -t targets all \\
        | grep -E '^bench\\.[^/:]*\\.mpi:' | cut -d: -f1)
"""
import argparse
import datetime
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dash_dropin import (ARGS, NOTES, dash_commit, examples_dir, installed_prefix,  # noqa: E402
                         log, run_mpi, run_summary)

# Arguments for the timed runs where scripts/dash_dropin.py's (chosen to end in a second) leave
# start-up the larger part of the run: sizes and repetitions that keep each program busy for 1-4
# s at 2 units on this machine (measured with DASH's build). The others take dash_dropin's.
TIMING_ARGS = {
    "bench.07.local-copy": ["-sb", "4", "-smin", "1024", "-i", "6", "-rmax", "10", "-rmin", "2",
                            "-rb", "2"],
    "bench.08.min-element": ["-sb", "2", "-smin", "4000000", "-i", "4", "-rmax", "10", "-rmin",
                             "2", "-rb", "2"],
    "bench.08.transform": ["-sb", "2", "-smin", "1000000", "-i", "4", "-rmax", "10", "-rmin",
                           "2", "-rb", "2"],
    "bench.13.allreduce": ["-r", "2000", "-n", "5"],
    "bench.14.accumulate": ["-r", "1000", "-n", "3"],
    "bench.15.copy": ["-r", "5", "-n", "3", "-t", "64", "-s", "2048"],
}

# Programs whose run under DASH's build cannot be timed against ours, and why.
UNTIMED = {
    "bench.10.summa": "DASH's Release build without BLAS has no DGEMM: its run stops at the "
                      "first multiply (\"Called fallback implementation of DGEMM (only enabled "
                      "in Debug)\"), ours multiplies",
}

# Flags of DASH's compile lines that belong to DASH's build, not to the program's optimisation:
# include paths, definitions (but -DNDEBUG), dependency files, outputs.
DROP_WITH_VALUE = {"-I", "-isystem", "-MT", "-MF", "-o", "-D"}


def dash_flags(build, target):
    """Optimisation and target flags DASH's build uses for target's main source."""
    out = subprocess.run(["ninja", "-C", build, "-t", "commands", target], capture_output=True,
                         text=True, check=True).stdout
    line = next((l for l in out.splitlines() if " -c " in l and "main.cpp" in l), None)
    if line is None:
        sys.exit(f"dash_bench_vs_dash.py: no compile line for {target} in {build}")
    words = shlex.split(line)[1:]
    flags, skip = [], False
    for w in words:
        if skip:
            skip = False
            continue
        if w in DROP_WITH_VALUE:
            skip = True
            continue
        if (w.startswith(("-I", "-isystem", "-MT", "-MF")) or w in ("-MD", "-c")
                or (w.startswith("-D") and w != "-DNDEBUG") or w.endswith((".cpp", ".o"))
                or w.startswith("-std=")):
            continue
        if w not in flags:
            flags.append(w)
    return flags


def dash_binary(build, target):
    """Path of target's executable in DASH's build."""
    out = subprocess.run(["ninja", "-C", build, "-t", "query", target], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        path = line.strip()
        if path.endswith("/" + target) or os.path.basename(path) == target:
            full = path if os.path.isabs(path) else os.path.join(build, path)
            if os.path.isfile(full):
                return full
    for root in (os.path.join(build, "bin"), build):
        for dirpath, _, files in os.walk(root):
            if target in files:
                return os.path.join(dirpath, target)
    sys.exit(f"dash_bench_vs_dash.py: {target} is not built in {build}")


def compile_ours(name, examples, prefix, flags, work, reuse):
    folder = os.path.join(examples, name)
    sources = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".cpp"))
    out_dir = os.path.join(work, "ours", name)
    os.makedirs(out_dir, exist_ok=True)
    binary = os.path.join(out_dir, name)
    if reuse and os.path.isfile(binary):
        return binary
    cmd = [os.path.join(prefix, "bin", "dash-mpicxx"), *flags, *sources, "-o", binary]
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    with open(os.path.join(out_dir, "compile.log"), "w") as f:
        f.write(" ".join(cmd) + "\n" + proc.stdout + proc.stderr)
    if proc.returncode != 0:
        sys.exit(f"dash_bench_vs_dash.py: {name} does not compile against {prefix} "
                 f"(see {out_dir}/compile.log)")
    return binary


def timed_run(binary, name, src_dir, units, timeout, run_dir):
    args = [a.replace("{src}", src_dir) for a in TIMING_ARGS.get(name, ARGS.get(name, []))]
    start = time.monotonic()
    status, output = run_mpi(binary, args, units, run_dir, timeout)
    return time.monotonic() - start, status, run_summary(output, status)


def report(data):
    lines = [
        "# DASH's benchmark programs: this library against DASH",
        "",
        f"`scripts/dash_bench_vs_dash.py` ({data['date']}): DASH's `bench.*` programs (DASH "
        f"commit {data['dash_commit']}) built unchanged against this library's installed prefix "
        f"(library commit {data['library_commit']}) and by DASH's own Release build (optional "
        "externals off, shared windows on), both with the flags DASH's build gives them "
        f"(`{' '.join(data['flags'])}`), run side by side on OpenMPI at "
        f"{' and '.join(str(u) for u in data['units'])} units (`--oversubscribe`, "
        f"{data['reps']} rounds, the order of the two alternating between rounds, arguments "
        "from `scripts/dash_dropin.py`'s table). Time: wall time of the whole run, median of "
        "the rounds; ratio: ours / DASH's (below 1: faster here); arguments: "
        f"{'; '.join(n + ' ' + ' '.join(a) for n, a in sorted(TIMING_ARGS.items()))}, "
        "the others dash_dropin's. Machine: "
        f"{data['machine']}.",
        "",
        f"- **{data['at_or_below']} of {data['timed']}** program runs at or below 1.0 x DASH's "
        f"time; the largest ratio {data['worst']}.",
        "",
        "| program | units | ours s (min-max) | DASH's s (min-max) | ours / DASH's |",
        "|---|---:|---:|---:|---:|",
    ]
    for row in data["rows"]:
        if row.get("failed"):
            lines.append(f"| {row['name']} | {row['units']} | {row['failed']} | | |")
            continue
        lines.append(
            f"| {row['name']} | {row['units']} | {row['ours']:.2f} ({row['ours_min']:.2f}-"
            f"{row['ours_max']:.2f}) | {row['dash']:.2f} ({row['dash_min']:.2f}-"
            f"{row['dash_max']:.2f}) | {row['ratio']:.2f} |")
    if data["left_out"]:
        lines += ["", "Left out (they cannot run to the end on this machine or under DASH's "
                  "build, whatever the library):", ""]
        lines += [f"- {name}: {why}" for name, why in sorted(data["left_out"].items())]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", required=True)
    parser.add_argument("--prefix", required=True)
    parser.add_argument("--dash-build", required=True)
    parser.add_argument("--dash-repo", default="")
    parser.add_argument("--units", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--only", default="")
    parser.add_argument("--work", default="")
    parser.add_argument("--out", default="bench/results/dash_benchmarks.md")
    parser.add_argument("--library-commit", default="")
    parser.add_argument("--reuse", action="store_true",
                        help="use the binaries an earlier run left in --work")
    args = parser.parse_args()

    examples = examples_dir(args.examples)
    prefix = installed_prefix(args.prefix, "dash_bench_vs_dash.py")
    build = os.path.abspath(args.dash_build)
    work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="dash-vs-dash-"))
    names = sorted(n for n in os.listdir(examples) if n.startswith("bench.")
                   and os.path.isfile(os.path.join(examples, n, "main.cpp"))
                   and re.search(args.only, n))
    left_out = {n: NOTES.get(n) or UNTIMED[n] for n in names if n in NOTES or n in UNTIMED}
    names = [n for n in names if n not in left_out]
    if not names:
        sys.exit("dash_bench_vs_dash.py: no program selected")

    flags = dash_flags(build, names[0] + ".mpi")
    log(f"dash_bench_vs_dash.py: flags {' '.join(flags)}; work directory {work}")
    binaries = {}
    for name in names:
        if dash_flags(build, name + ".mpi") != flags:
            log(f"dash_bench_vs_dash.py: {name}: DASH's build gives it other flags; using them")
        binaries[name] = (compile_ours(name, examples, prefix, dash_flags(build, name + ".mpi"),
                                       work, args.reuse),
                          dash_binary(build, name + ".mpi"))
        log(f"dash_bench_vs_dash.py: built {name}")

    times = {}  # (name, units, side) -> [seconds]
    failures = {}  # (name, units) -> text
    for rep in range(args.reps):
        for units in args.units:
            for name in names:
                src = os.path.join(examples, name)
                sides = [("ours", 0), ("dash", 1)]
                if rep % 2:
                    sides.reverse()
                for side, index in sides:
                    run_dir = os.path.join(work, side, name, f"run-{units}-{rep}")
                    seconds, status, last = timed_run(binaries[name][index], name, src, units,
                                                      args.timeout, run_dir)
                    if status != "0":
                        failures.setdefault((name, units), f"{side}: exit {status}: {last}")
                    else:
                        times.setdefault((name, units, side), []).append(seconds)
            log(f"dash_bench_vs_dash.py: round {rep + 1} at {units} units done")

    rows = []
    for units in args.units:
        for name in names:
            if (name, units) in failures:
                rows.append({"name": name, "units": units, "failed": failures[(name, units)]})
                continue
            ours, dash = times[(name, units, "ours")], times[(name, units, "dash")]
            rows.append({"name": name, "units": units, "ours": statistics.median(ours),
                         "ours_min": min(ours), "ours_max": max(ours),
                         "dash": statistics.median(dash), "dash_min": min(dash),
                         "dash_max": max(dash),
                         "ratio": statistics.median(ours) / statistics.median(dash)})
    timed = [r for r in rows if not r.get("failed")]
    worst = max(timed, key=lambda r: r["ratio"]) if timed else None
    data = {
        "date": datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"),
        "dash_commit": dash_commit(args.dash_repo) if args.dash_repo else "(not given)",
        "library_commit": args.library_commit or "(not given)",
        "flags": flags, "units": args.units, "reps": args.reps, "rows": rows,
        "left_out": left_out, "timed": len(timed),
        "at_or_below": sum(r["ratio"] <= 1.0 for r in timed),
        "worst": f"{worst['ratio']:.2f} ({worst['name']} at {worst['units']} units)"
                 if worst else "-",
        "machine": f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the end",
    }
    with open(args.out, "w") as f:
        f.write(report(data))
    log(f"dash_bench_vs_dash.py: wrote {args.out}")


if __name__ == "__main__":
    main()
