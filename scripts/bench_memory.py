#!/usr/bin/env python3
"""Peak resident memory of the out-of-core examples, written to bench/results/memory.{json,md}.

    scripts/bench_memory.py [--build DIR] [--units 2,4] [--quick] [--programs P,...]

Runs, per unit count (2 and 4), each example with --verbose and takes the largest unit's peak
resident memory (getrusage's ru_maxrss, as the examples print it):

  baseline     each program on a tiny problem (ooc-jacobi --grid 64,64, ooc-fft2d --n 64,
               ooc-reduce --items 1 --blocks-per-unit 1): MPI, the libraries, the program
  ooc-jacobi   --grid N,N --iterations 2 for N = 4096 and 8192 (--quick: 4096): incore, and
               collective / producer / demand at --mem-fraction 1/4, 1/8, 1/16 (of the unit's
               local array)
  ooc-fft2d    --n 4096: incore, and producer / collective at 1/4, 1/8, 1/16 (of the unit's
               two local arrays, a and b)
  ooc-reduce   --items 16384 --item-bytes 64 (1 MiB blocks), merge / swap / alltoall, 16 and 64
               blocks per unit, --mem-blocks 1 and 2

--programs ooc-reduce (say) runs only those programs; the rows of the others are carried over
from the memory.md already there, and the header says from when.

Each out-of-core row gives "above baseline / share": the peak minus the program's baseline,
divided by the fraction of the data the run was given (ooc-jacobi, ooc-fft2d) or by one block's
bytes (ooc-reduce, to set against M + 2 blocks). Spill files and local array files go to
DASH_OOC_DIR (default /var/tmp) with DASH_OOC_DIRECT=1 (the device, not the page cache). Every
run's checksum must equal the in-core one of its example (or, for ooc-reduce, the one of the
same op and block count); a difference stops the script.
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")
LAUNCH = os.path.join(ROOT, "scripts", "launch.sh")
MIB = 1024 * 1024
FRACTIONS = ["1/4", "1/8", "1/16"]


def log(text):
    print(f"bench_memory: {text}", flush=True)


def run(build, units, program, args, env):
    cmd = [LAUNCH, "-n", str(units), os.path.join(build, "examples", program)] + args
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    text = p.stdout + p.stderr
    peaks = [int(k) for k in re.findall(r"unit \d+: peak resident memory (\d+) KiB", text)]
    last = re.search(r"time_s=([0-9.]+).*checksum=([0-9a-f]+)", text)
    if p.returncode != 0 or last is None or len(peaks) != units:
        sys.exit(f"bench_memory: {' '.join(cmd)} failed:\n{text[-2000:]}")
    return {"peak_mib": max(peaks) / 1024, "time_s": float(last.group(1)),
            "checksum": last.group(2)}


def carried_over(programs):
    """The table rows of memory.md for programs not in `programs`, and the date it was written."""
    path = os.path.join(RESULTS, "memory.md")
    if programs >= {"ooc-jacobi", "ooc-fft2d", "ooc-reduce"} or not os.path.exists(path):
        return [], None
    with open(path) as f:
        text = f.read()
    date = re.search(r"on (\d{4}-\d\d-\d\d \d\d:\d\d UTC)", text)
    rows = [line for line in text.splitlines()
            if re.match(r"\| \d+ \| ooc-", line) and line.split(" | ")[1] not in programs]
    return rows, date.group(1) if date else "an earlier run"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", help="build directory (default build/$DASH_MPI)")
    ap.add_argument("--units", default="2,4")
    ap.add_argument("--quick", action="store_true", help="2 units, 1/8 only, 16 blocks per unit")
    ap.add_argument("--programs", default="ooc-jacobi,ooc-fft2d,ooc-reduce",
                    help="the programs to run (the others' rows are kept from memory.md)")
    a = ap.parse_args()
    programs = set(a.programs.split(","))
    unknown = programs - {"ooc-jacobi", "ooc-fft2d", "ooc-reduce"}
    if unknown:
        sys.exit(f"bench_memory: --programs: unknown {sorted(unknown)}")
    kept, kept_date = carried_over(programs)
    mpi = os.environ.get("DASH_MPI", "openmpi")
    build = a.build or os.path.join(ROOT, "build", mpi)
    env = dict(os.environ)
    env.setdefault("DASH_OOC_DIR", "/var/tmp")
    env["DASH_OOC_DIRECT"] = "1"
    units_list = [2] if a.quick else [int(u) for u in a.units.split(",")]
    fractions = ["1/8"] if a.quick else FRACTIONS
    rows = []
    for units in units_list:
        tiny = {
            "ooc-jacobi": ["--grid", "64,64", "--iterations", "1", "--strategy", "incore"],
            "ooc-fft2d": ["--n", "64", "--strategy", "incore"],
            "ooc-reduce": ["--items", "1", "--blocks-per-unit", "1"],
        }
        base = {p: run(build, units, p, tiny[p] + ["--verbose"], env)["peak_mib"]
                for p in sorted(programs)}
        log(f"{units} units: baselines {base}")

        def add(program, config, share_mib, share_name, args, reference=None, goal=None):
            r = run(build, units, program, args + ["--verbose"], env)
            if reference is not None and r["checksum"] != reference:
                sys.exit(f"bench_memory: {program} {config}: checksum {r['checksum']}, "
                         f"in core {reference}")
            above = r["peak_mib"] - base[program]
            rows.append({"units": units, "program": program, "config": config,
                         "peak_mib": r["peak_mib"], "baseline_mib": base[program],
                         "share_mib": share_mib, "share": share_name,
                         "above_over_share": above / share_mib if share_mib else None,
                         "goal": goal,
                         "time_s": r["time_s"], "checksum": r["checksum"]})
            log(f"{units} units {program} {config}: peak {r['peak_mib']:.1f} MiB "
                f"({above:.1f} above baseline, share {share_mib:.1f} MiB)")
            return r

        for n in [] if "ooc-jacobi" not in programs else [4096] if a.quick else [4096, 8192]:
            data = n * n * 8 / units / MIB  # one local array of doubles
            jac = ["--grid", f"{n},{n}", "--iterations", "2"]
            ref = add("ooc-jacobi", f"{n}^2 incore", data, "data",
                      jac + ["--strategy", "incore"])["checksum"]
            for s in ("collective", "producer", "demand"):
                for f in fractions:
                    add("ooc-jacobi", f"{n}^2 {s} {f}", data * float(Fraction(f)),
                        f"{f} of data", jac + ["--strategy", s, "--mem-fraction", f], ref,
                        goal=1.1)
        n = 4096
        data = 2 * n * n * 16 / units / MIB  # a and b, complex doubles
        if "ooc-fft2d" in programs:
            ref = add("ooc-fft2d", "incore", data, "data",
                      ["--n", str(n), "--strategy", "incore"])["checksum"]
            for s in ("producer", "collective"):
                for f in fractions:
                    add("ooc-fft2d", f"{s} {f}", data * float(Fraction(f)), f"{f} of data",
                        ["--n", str(n), "--strategy", s, "--mem-fraction", f], ref, goal=1.1)
        block = 16384 * 64 / MIB
        for op in ("merge", "swap", "alltoall") if "ooc-reduce" in programs else ():
            for per_unit in ([16] if a.quick else [16, 64]):
                red = ["--op", op, "--items", "16384", "--item-bytes", "64",
                       "--blocks-per-unit", str(per_unit)]
                ref = add("ooc-reduce", f"{op} {per_unit} blocks, all in memory",
                          block * per_unit, "all blocks", red)["checksum"]
                for m in (1, 2):
                    add("ooc-reduce", f"{op} {per_unit} blocks, {m} in memory", block,
                        "one block", red + ["--mem-blocks", str(m)], ref, goal=m + 2)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    os.makedirs(RESULTS, exist_ok=True)
    with open(os.path.join(RESULTS, "memory.json"), "w") as f:
        json.dump({"meta": {"date": stamp, "mpi": mpi}, "rows": rows}, f, indent=1)
    carried = ""
    if kept:
        names = ", ".join(sorted({r.split(" | ")[1] for r in kept}))
        carried = f" The rows of {names} are carried over from the run of {kept_date}."
    lines = [
        "# Peak resident memory of the out-of-core examples",
        "",
        f"Written by `scripts/bench_memory.py` on {stamp} ({mpi}; O_DIRECT, spill and local",
        "array files on the disk). Peak: the largest unit's resident memory (ru_maxrss), MiB.",
        "Baseline: the same program on a tiny problem. Share: what the run was given — the",
        "fraction of the unit's data (`--mem-fraction`; ooc-fft2d: of a and b), or one block",
        "(ooc-reduce). Above / share: (peak - baseline) / share. Goal: at most 1.1 for the",
        "fractions, M + 2 (blocks) for `--mem-blocks M`; in-core rows are the reference." + carried,
        "",
        "| units | program | run | peak | baseline | share | above / share | goal | time s |",
        "|------:|---------|-----|-----:|---------:|------:|--------------:|-----:|-------:|",
    ]
    table = []
    for r in rows:
        goal = "" if r["goal"] is None else f"{r['goal']:g}"
        table.append(f"| {r['units']} | {r['program']} | {r['config']} | {r['peak_mib']:.1f} | "
                     f"{r['baseline_mib']:.1f} | {r['share_mib']:.1f} ({r['share']}) | "
                     f"{r['above_over_share']:.2f} | {goal} | {r['time_s']:.2f} |")
    order = ["ooc-jacobi", "ooc-fft2d", "ooc-reduce"]  # the table's order: by units, then program
    key = lambda line: (int(line.split(" | ")[0].strip("| ")), order.index(line.split(" | ")[1]))
    lines += sorted(table + kept, key=key)
    with open(os.path.join(RESULTS, "memory.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    log("wrote bench/results/memory.md and memory.json")


if __name__ == "__main__":
    main()
