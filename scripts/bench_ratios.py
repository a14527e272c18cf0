#!/usr/bin/env python3
"""One benchmark binary launched several times: its ratios against the baselines it measures.

    scripts/bench_ratios.py BINARY [--units 2] [--reps 7] [--filter REGEX]
                            [--out bench/results/NAME.md] [--title TEXT]

Runs BINARY through scripts/launch.sh `reps` times and collects, for every benchmark, each
ratio_vs_<baseline> counter (bench::run_paired: the median over one launch's interleaved
iterations of subject time / baseline time). Prints and (with --out) writes a table of the
median over the launches with the lowest and highest: a launch places its buffers anew, and
on some machines a launch's figures move together by 20 % or more (address aliasing between
buffers), so one launch is not a figure. For MPICH set DASH_MPIEXEC="mpiexec.mpich -bind-to
core" (as scripts/bench.sh does).
"""
import argparse
import datetime
import os
import re
import statistics

from bench_ab import log, report, run_report


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--units", type=int, default=2)
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--filter", default="")
    parser.add_argument("--out")
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    ratios = {}  # benchmark -> baseline -> [ratio per launch]
    for rep in range(args.reps):
        log(f"launch {rep + 1}/{args.reps}")
        for b in run_report(os.path.abspath(args.binary), args.units, args.filter):
            for key, value in b.items():
                if key.startswith("ratio_vs_"):
                    ratios.setdefault(b["name"], {}).setdefault(key[9:], []).append(value)
    baselines = sorted({base for per in ratios.values() for base in per})
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"# {args.title or os.path.basename(args.binary)}: ratios against the baselines", "",
             f"`scripts/bench_ratios.py` ({stamp}; {args.units} units, {args.reps} launches; "
             "each cell: median over the launches [lowest, highest] of the benchmark's "
             "time / the baseline's; below 1: faster).", "",
             "| benchmark | " + " | ".join(baselines) + " |",
             "|---|" + "---:|" * len(baselines)]
    for name, per in ratios.items():
        cells = []
        for base in baselines:
            v = per.get(base)
            cells.append(f"{statistics.median(v):.3f} [{min(v):.2f}, {max(v):.2f}]" if v else "")
        short = re.sub(r"/iterations:[0-9]+|/manual_time", "", name)
        lines.append(f"| {short} | " + " | ".join(cells) + " |")
    report("\n".join(lines) + "\n", args.out)


if __name__ == "__main__":
    main()
