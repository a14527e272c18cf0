#!/usr/bin/env python3
"""bench/iexchange at 2-64 units, written to bench/results/iexchange.{json,md}.

    scripts/bench_iexchange.py BINARY [--baseline OLD_BINARY] [--units 2,4,8,16,32,64]
                               [--reps 3] [--label NAME] [--baseline-label NAME] [--out NAME]

Runs BM_iexchange_ring of BINARY (e.g. build/openmpi/bench/iexchange) and, if given, of an
older build of the same benchmark (--baseline: e.g. one built before a change), interleaved
(repetition r of every case and binary before repetition r + 1; medians). The machine has
fewer cores than most of these unit counts: the work counters (per-unit buffers visited to
route a block call's queues, bytes and calls of malloc per block call) are what scales with the
library's design; the time per block call is the scheduler's share there and is shown for the
unit counts with a core per unit only. --out NAME writes bench/results/NAME.{json,md} instead
(e.g. iexchange.mpich for a build with MPICH).
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")
LAUNCH = os.path.join(ROOT, "scripts", "launch.sh")
COUNTERS = ["buffers_visited", "alloc_bytes", "allocs", "own_alloc_bytes", "own_allocs", "us",
            "block_calls"]


def log(text):
    print(f"bench_iexchange: {text}", flush=True)


def run(binary, units):
    """{benchmark name: {counter: value}} of one run of binary on `units` units."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        cmd = [LAUNCH, "-n", str(units), binary, "--benchmark_filter=BM_iexchange_ring",
               f"--benchmark_out={out.name}", "--benchmark_out_format=json"]
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              timeout=900)
        if done.returncode != 0:
            sys.exit(f"bench_iexchange: {' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
        report = json.load(open(out.name))
    rows = {}
    for b in report["benchmarks"]:
        if b.get("error_occurred"):
            sys.exit(f"bench_iexchange: {b['name']} on {units} units: {b.get('error_message')}")
        name = b["name"].split("/iterations")[0]
        rows[name] = {c: b[c] for c in COUNTERS}
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--baseline")
    parser.add_argument("--label", default="now")
    parser.add_argument("--baseline-label", default="before")
    parser.add_argument("--units", default="2,4,8,16,32,64")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--out", default="iexchange")
    args = parser.parse_args()
    binaries = [(args.label, os.path.abspath(args.binary))]
    if args.baseline:
        binaries.insert(0, (args.baseline_label, os.path.abspath(args.baseline)))
    for _, b in binaries:
        if not os.access(b, os.X_OK):
            sys.exit(f"bench_iexchange: {b} is not an executable")
    units = [int(u) for u in args.units.split(",")]
    samples = {}  # (label, units, name) -> counter -> [values]
    for rep in range(args.reps):
        for p in units:
            for label, binary in binaries:
                log(f"rep {rep + 1}/{args.reps}, {p} units, {label}")
                for name, counters in run(binary, p).items():
                    slot = samples.setdefault((label, p, name), {c: [] for c in COUNTERS})
                    for c, v in counters.items():
                        slot[c].append(v)
    medians = {k: {c: statistics.median(v) for c, v in s.items()} for k, s in samples.items()}
    cores = os.cpu_count() or 1
    os.makedirs(RESULTS, exist_ok=True)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    with open(os.path.join(RESULTS, args.out + ".json"), "w") as f:
        json.dump({"date": stamp, "cores": cores, "reps": args.reps,
                   "rows": [{"binary": l, "units": p, "benchmark": n, **m}
                            for (l, p, n), m in sorted(medians.items())]}, f, indent=1)
    names = sorted({n for (_, _, n) in medians})
    labels = [l for l, _ in binaries]
    lines = [
        "# iexchange: work per block call as the unit count grows",
        "",
        f"`scripts/bench_iexchange.py` ({stamp}; {cores} cores, medians of {args.reps} "
        "interleaved repetitions). `BM_iexchange_ring/blocks_per_unit:<b>/tokens:<t>`: a ring of "
        "blocks (two neighbours each at every unit count), tokens passed on for 4 x P hops. Per "
        "block call of unit 0: per-unit send buffers visited to route the call's queues; bytes "
        "and calls of malloc on the calling thread outside MPI's calls (the library's own), and "
        "calls inside them (MPI's: they grow with the termination attempts, which oversubscribed "
        "units make more of); time (shown only where every unit has a core: beyond that it is "
        "the scheduler's share). The library's bytes are mostly queue memory growing to the "
        "message sizes, which grow where tokens pile up at units waiting for a core.",
        "",
    ]
    for name in names:
        lines += [f"## {name}", ""]
        head = "| units |" + "".join(
            f" visited {l} | library malloc B {l} | library mallocs {l} | MPI mallocs {l} | us {l} |"
            for l in labels)
        lines += [head, "|---:|" + "---:|" * (5 * len(labels))]
        for p in units:
            row = f"| {p} |"
            for l in labels:
                m = medians.get((l, p, name))
                if m is None:
                    row += " - | - | - | - | - |"
                    continue
                us = f"{m['us']:.1f}" if p <= cores else "-"
                row += (f" {m['buffers_visited']:.2f} | {m['own_alloc_bytes']:.0f} | "
                        f"{m['own_allocs']:.2f} | {m['allocs'] - m['own_allocs']:.1f} | {us} |")
            lines.append(row)
        lines.append("")
    with open(os.path.join(RESULTS, args.out + ".md"), "w") as f:
        f.write("\n".join(lines))
    log(f"wrote bench/results/{args.out}.{{json,md}}")


if __name__ == "__main__":
    main()
