#!/usr/bin/env python3
"""Two builds of one benchmark binary side by side: before and after a change.

    scripts/bench_ab.py BEFORE AFTER [--units 2] [--reps 3] [--filter REGEX]
                        [--extra LABEL=BINARY]... [--metric COUNTER[,COUNTER...]]
                        [--out bench/results/NAME.md] [--title TEXT]

Runs BEFORE and AFTER (e.g. a copy of build/openmpi/bench/blocks made before the change, and
the new one) through scripts/launch.sh on the same units, interleaved (repetition r of both
before r + 1; which goes first alternates), and compares every benchmark's time per item (the
median pass time Google Benchmark reports: the subject's side of bench::run_paired, else the
benchmark's real time). Prints and (with --out) writes a table: medians over the repetitions,
after / before, and the largest ratio. Each --extra adds a third (fourth, ...) binary to the
rotation, e.g. a build with a debugging option on, with its own columns (time and LABEL / before);
the largest ratio stays that of AFTER. --metric adds a second table from the same runs: per
benchmark the first of the named counters it reports, e.g. ratio_vs_pointer (bench::run_paired's
subject time over its baseline's, measured pass by pass in one process: it holds when the load
of a shared machine changes between runs, which moves the times of the first table). The same
machine, the same run: a ratio is a fair comparison, an absolute time is not. For MPICH set DASH_MPIEXEC="mpiexec.mpich -bind-to core"
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


def run(binary, units, filt, metrics):
    """Per benchmark: the subject's time per item and the first of `metrics` it reports."""
    out = {}
    for b in run_report(binary, units, filt):
        metric = next((float(b[m]) for m in metrics if isinstance(b.get(m), (int, float))), None)
        out[b["name"]] = (subject_time(b), metric)
    return out


def table(samples, sides, what, value_format):
    """Markdown rows of medians per side and their ratio to before; the largest after / before."""
    extras = list(sides)[2:]
    names = [n for n in samples["after"] if all(samples[side].get(n) for side in sides)]
    header = "| benchmark | before | after | after / before |"
    rule = "|---|---:|---:|---:|"
    for label in extras:
        header += f" {label} | {label} / before |"
        rule += "---:|---:|"
    lines, worst = [what, "", header, rule], (0.0, "")
    for name in names:
        b = statistics.median(samples["before"][name])
        cells = [re.sub(r'/iterations:[0-9]+|/manual_time', '', name), value_format.format(b)]
        for side in ["after"] + extras:
            t = statistics.median(samples[side][name])
            ratio = t / b if b > 0 else float("nan")
            cells += [value_format.format(t), f"{ratio:.3f}"]
            if side == "after" and ratio > worst[0]:
                worst = (ratio, name)
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", f"Largest after / before: {worst[0]:.3f} ({worst[1]}).", ""]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--units", type=int, default=2)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--filter", default="")
    parser.add_argument("--out")
    parser.add_argument("--title", default="")
    parser.add_argument("--extra", action="append", default=[], metavar="LABEL=BINARY")
    parser.add_argument("--metric", default="", metavar="COUNTER[,COUNTER...]")
    args = parser.parse_args()
    sides = {"before": os.path.abspath(args.before), "after": os.path.abspath(args.after)}
    for extra in args.extra:
        label, sep, binary = extra.partition("=")
        if not sep or not label or label in sides:
            sys.exit(f"bench_ab: --extra {extra!r}: expected a new LABEL=BINARY")
        sides[label] = os.path.abspath(binary)
    metrics = [m for m in args.metric.split(",") if m]
    times = {side: {} for side in sides}
    values = {side: {} for side in sides}
    for rep in range(args.reps):
        # Two sides alternate which goes first; more rotate.
        order = list(sides)
        order = order[rep % len(order):] + order[:rep % len(order)]
        if len(order) == 2 and rep % 2 == 1:
            order = ["after", "before"]
        for side in order:
            log(f"rep {rep + 1}/{args.reps}: {side}")
            for name, (t, metric) in run(sides[side], args.units, args.filter, metrics).items():
                times[side].setdefault(name, []).append(t)
                if metric is not None:
                    values[side].setdefault(name, []).append(metric)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"# {args.title or os.path.basename(args.after)}: after / before", "",
             f"`scripts/bench_ab.py` ({stamp}; {args.units} units, medians of {args.reps} "
             "interleaved repetitions).", ""]
    lines += table(times, sides, "Time per item of the subject, ns:", "{:.4g}")
    if metrics:
        lines += table(values, sides, f"The counter {' / '.join(metrics)} (the first reported):",
                       "{:.4g}")
    report("\n".join(lines), args.out)


if __name__ == "__main__":
    main()
