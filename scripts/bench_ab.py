#!/usr/bin/env python3
"""Two builds of one benchmark binary side by side: before and after a change.

    scripts/bench_ab.py BEFORE AFTER [--units 2] [--reps 3] [--filter REGEX]
                        [--out bench/results/NAME.md] [--title TEXT]

Runs BEFORE and AFTER (e.g. a copy of build/openmpi/bench/blocks made before the change, and
the new one) through scripts/launch.sh on the same units, interleaved (repetition r of both
before r + 1; which goes first alternates), and compares every benchmark's time per item (the
median pass time Google Benchmark reports: the subject's side of bench::run_paired, else the
benchmark's real time). Prints and (with --out) writes a table: medians over the repetitions,
after / before, and the largest ratio. The same machine, the same run: a ratio is a fair
comparison, an absolute time is not. For MPICH set DASH_MPIEXEC="mpiexec.mpich -bind-to core"
(as scripts/bench.sh does: unbound MPICH units share cores now and then).
"""
import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAUNCH = os.path.join(ROOT, "scripts", "launch.sh")


def log(text):
    print(f"bench_ab: {text}", file=sys.stderr, flush=True)


def subject_time(b):
    """The subject's median time per item if run_paired set it, else the real time (ns)."""
    for key, value in b.items():
        if key.startswith("ns_per_") and isinstance(value, (int, float)):
            return float(value)
    unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
    return float(b["real_time"]) * unit


def run_report(binary, units, filt):
    """One launch of binary on `units` units: its benchmarks (no errors, no aggregates)."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        cmd = [LAUNCH, "-n", str(units), binary, f"--benchmark_out={out.name}",
               "--benchmark_out_format=json"]
        if filt:
            cmd.append(f"--benchmark_filter={filt}")
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.exit(f"bench_ab: {' '.join(cmd)} failed:\n{done.stderr[-3000:]}")
        report = json.load(open(out.name))
    return [b for b in report["benchmarks"]
            if not b.get("error_occurred") and b.get("run_type") != "aggregate"]


def report(text, out):
    """Prints text and, with a path, writes it there."""
    print(text)
    if out:
        with open(out, "w") as f:
            f.write(text)


def run(binary, units, filt):
    return {b["name"]: subject_time(b) for b in run_report(binary, units, filt)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--units", type=int, default=2)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--filter", default="")
    parser.add_argument("--out")
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    sides = {"before": os.path.abspath(args.before), "after": os.path.abspath(args.after)}
    samples = {"before": {}, "after": {}}
    for rep in range(args.reps):
        order = ["before", "after"] if rep % 2 == 0 else ["after", "before"]
        for side in order:
            log(f"rep {rep + 1}/{args.reps}: {side}")
            for name, t in run(sides[side], args.units, args.filter).items():
                samples[side].setdefault(name, []).append(t)
    names = [n for n in samples["after"] if n in samples["before"]]
    rows, worst = [], (0.0, "")
    for name in names:
        b = statistics.median(samples["before"][name])
        a = statistics.median(samples["after"][name])
        ratio = a / b if b > 0 else float("nan")
        if ratio > worst[0]:
            worst = (ratio, name)
        rows.append((name, b, a, ratio))
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"# {args.title or os.path.basename(args.after)}: after / before", "",
             f"`scripts/bench_ab.py` ({stamp}; {args.units} units, medians of {args.reps} "
             "interleaved repetitions; time per item of the subject, ns).", "",
             "| benchmark | before | after | after / before |", "|---|---:|---:|---:|"]
    for name, b, a, r in rows:
        lines.append(f"| {re.sub(r'/iterations:[0-9]+|/manual_time', '', name)} | {b:.4g} | "
                     f"{a:.4g} | {r:.3f} |")
    lines += ["", f"Largest ratio: {worst[0]:.3f} ({worst[1]}).", ""]
    report("\n".join(lines), args.out)


if __name__ == "__main__":
    main()
