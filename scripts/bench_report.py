#!/usr/bin/env python3
"""Turns the Google Benchmark JSON files of a results folder into summary.md (one Markdown
table per file) and, when matplotlib is importable, one PNG per file in <results>/plots/
plotting each benchmark family over its last numeric argument (bandwidth when the benchmark
reports bytes/s; the axis named by the benchmark's ArgName, e.g. BM_x/bytes:4096). The plots
are local (git-ignored) and summary.md does not link them: it links nothing the repository
lacks.

Benchmarks that measure their baselines themselves (bench/containers.cc, algorithms.cc, ...)
report the counters ns_per_<item>, <baseline>_ns_per_<item> and ratio_vs_<baseline>; their
file also gets one table per benchmark family with those figures side by side. Sections of an
existing summary.md whose benchmark has no JSON file this time are kept as they were (with
their own dates), so a partial run (scripts/bench.sh <name>) updates only its own sections.

usage: scripts/bench_report.py [results-dir]      (default: bench/results)
(Without JSON files it rewrites summary.md's kept sections in today's form.)
"""
import json
import pathlib
import re
import sys

STANDARD_KEYS = {
    "name", "family_index", "per_family_instance_index", "run_name", "run_type",
    "repetitions", "repetition_index", "threads", "iterations", "real_time", "cpu_time",
    "time_unit", "bytes_per_second", "items_per_second", "label", "aggregate_name",
    "aggregate_unit", "error_occurred", "error_message",
}


def load_runs(path):
    """Benchmark entries of one JSON file: medians where repetitions ran (each with the lowest
    and highest value of every ratio over its repetitions, as ratio_range), else every run."""
    data = json.loads(path.read_text())
    runs = data.get("benchmarks", [])
    repeated = {r.get("run_name") for r in runs if r.get("aggregate_name") == "median"}
    chosen = []
    for run in runs:
        if run.get("run_name") in repeated:
            if run.get("aggregate_name") != "median":
                continue
            run = dict(run)
            singles = [r for r in runs if r.get("run_name") == run["run_name"]
                       and r.get("run_type") != "aggregate"]
            run["ratio_range"] = {
                key: (min(r[key] for r in singles), max(r[key] for r in singles))
                for key in run if key.startswith("ratio_vs_")
                and all(isinstance(r.get(key), (int, float)) for r in singles)}
        elif run.get("run_type") == "aggregate":
            continue
        chosen.append(run)
    return data.get("context", {}), chosen


NANOSECONDS_PER = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def human_time(value, unit):
    """A time in the largest unit that keeps it >= 1, e.g. '28.05 us'."""
    ns = value * NANOSECONDS_PER.get(unit, 1)
    for name, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.4g} {name}"
    return f"{ns:.4g} ns"


def human_bytes_per_second(value):
    """Decimal units: GB/s = 1e9 bytes per second."""
    return f"{value / 1e9:.2f} GB/s" if value >= 1e8 else f"{value / 1e6:.1f} MB/s"


def counters_of(run):
    """User counters (ratios, sizes ...) of a run as 'name=value' text."""
    parts = []
    for key, value in run.items():
        if key not in STANDARD_KEYS and isinstance(value, (int, float)):
            parts.append(f"{key}={value:.3g}")
    return ", ".join(parts)


def markdown_table(runs):
    lines = ["| benchmark | time (real) | bandwidth | iterations | counters |",
             "|---|---:|---:|---:|---|"]
    for run in runs:
        if run.get("error_occurred"):
            lines.append(f"| {run['name']} | error: {run.get('error_message', '')} | | | |")
            continue
        time = human_time(run["real_time"], run.get("time_unit", "ns"))
        bandwidth = human_bytes_per_second(run["bytes_per_second"]) \
            if "bytes_per_second" in run else ""
        lines.append(f"| {run['name']} | {time} | {bandwidth} | {run.get('iterations', '')} "
                     f"| {counters_of(run)} |")
    return "\n".join(lines)


TIME_SUFFIXES = ("real_time", "manual_time", "process_time")


def name_parts(name):
    """A run name's parts without the suffixes Google Benchmark appends (time kind, a fixed
    'iterations:N' as set by benchmarks that must run the same count on every unit,
    'repeats:N' and the aggregate's '_median')."""
    parts = []
    for p in name.split("/"):
        if p.endswith("_median"):
            p = p[:-len("_median")]
        if p not in TIME_SUFFIXES and not p.startswith(("iterations:", "repeats:")):
            parts.append(p)
    return parts


def named_value(part):
    """A name part as (argument name, value): 'bytes:4096' -> ('bytes', 4096), '4096' ->
    ('', 4096); (None, None) when it is not a number."""
    label, _, text = part.rpartition(":")
    return (label, int(text)) if text.isdigit() else (None, None)


def argument_of(name):
    """The argument part of a run name ('BM_x/4096/manual_time' -> '4096'); an argument the
    benchmark names as bytes (ArgName "bytes": 'BM_x/bytes:4096') in KiB, MiB or GiB. Unnamed
    numbers stay numbers: a grid side or a count is not a size."""
    parts = name_parts(name)[1:]
    shown = []
    for part in parts:
        label, value = named_value(part)
        if label and "bytes" in label:
            for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
                if value >= scale and value % scale == 0:
                    part = f"{value // scale} {unit}"
                    break
        shown.append(part)
    return "/".join(shown)


def ratio_tables(runs):
    """For each family (name before the first '/') whose runs carry ratio_vs_<baseline>
    counters: its label and a table of time per item of the measured operation, of each
    baseline, and the ratios. Empty when no run has ratio counters."""
    families = {}
    for run in runs:
        families.setdefault(run["name"].split("/")[0], []).append(run)
    sections = []
    for family, members in families.items():
        baselines, item = [], None
        for run in members:
            for key in run:
                if key.startswith("ratio_vs_") and key[len("ratio_vs_"):] not in baselines:
                    baselines.append(key[len("ratio_vs_"):])
                if key.startswith("ns_per_") and item is None:
                    item = key[len("ns_per_"):]
        if not baselines or item is None:
            continue
        header = ["argument", f"dash ns/{item}"]
        for base in baselines:
            header += [f"{base} ns/{item}", f"ratio vs {base}"]
        lines = [f"### {family}", ""]
        labels = {}
        for run in members:
            if run.get("label"):
                labels.setdefault(run["label"], []).append(argument_of(run["name"]))
        if len(labels) == 1:
            lines += [next(iter(labels)), ""]
        elif labels:
            lines += [f"- {', '.join(args)}: {label}" for label, args in labels.items()] + [""]
        lines += ["| " + " | ".join(header) + " |",
                  "|---|" + "---:|" * (len(header) - 1)]
        for run in members:
            cells = [argument_of(run["name"])]
            if run.get("error_occurred"):
                cells.append(f"error: {run.get('error_message', '')}")
                cells += [""] * (len(header) - 2)
            else:
                value = run.get(f"ns_per_{item}")
                cells.append(f"{value:.3g}" if isinstance(value, (int, float)) else "")
                for base in baselines:
                    ns = run.get(f"{base}_ns_per_{item}")
                    ratio = run.get(f"ratio_vs_{base}")
                    cells.append(f"{ns:.3g}" if isinstance(ns, (int, float)) else "")
                    low_high = run.get("ratio_range", {}).get(f"ratio_vs_{base}")
                    if not isinstance(ratio, (int, float)):
                        cells.append("")
                    elif low_high:
                        cells.append(f"{ratio:.3f} ({low_high[0]:.2f}–{low_high[1]:.2f})")
                    else:
                        cells.append(f"{ratio:.3f}")
            lines.append("| " + " | ".join(cells) + " |")
        sections.append("\n".join(lines))
    if not sections:
        return ""
    intro = ("Ratios: time(dash) / time(baseline), both measured interleaved in the same "
             "benchmark (1.000 = as fast, 2.000 = twice as slow). Where a benchmark ran "
             "repeatedly: the median over the repetitions (lowest–highest in brackets).")
    return "\n\n".join([intro] + sections)


def plot(runs, title, png_path, pyplot):
    """One line per family (name before the first '/') over the last numeric argument."""
    families, labels = {}, set()
    for run in runs:
        parts = name_parts(run["name"])
        if run.get("error_occurred") or len(parts) < 2:
            continue
        label, x = named_value(parts[-1])
        if x is None:
            continue
        labels.add(label)
        bandwidth = run.get("bytes_per_second")
        seconds = run["real_time"] * NANOSECONDS_PER.get(run.get("time_unit", "ns"), 1) * 1e-9
        value = bandwidth / 1e9 if bandwidth else seconds
        families.setdefault(parts[0], []).append((x, value))
    if not families:
        return False
    use_bandwidth = any("bytes_per_second" in r for r in runs)
    figure, axes = pyplot.subplots(figsize=(8, 5))
    for family, points in sorted(families.items()):
        points.sort()
        axes.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=family)
    axes.set_xscale("log", base=2)
    if not use_bandwidth:
        axes.set_yscale("log")
    # The benchmarks' own argument name (ArgName) where all runs agree on one, else the
    # plain "last argument of the name": never a unit the argument may not have.
    named = [l for l in labels if l]
    axes.set_xlabel(named[0] if len(labels) == 1 and named else "last argument of the name")
    axes.set_ylabel("bandwidth (GB/s)" if use_bandwidth else "time (s)")
    axes.set_title(title)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(png_path, dpi=100)
    pyplot.close(figure)
    return True


def previous_sections(summary):
    """The '## name' sections of an existing summary.md, by name, so that figures of
    benchmarks not run this time are kept (with their own dates). Links to plots (which the
    repository does not keep) and the old remark on the benchmark library's build are dropped,
    and arguments an older report wrote in KiB, MiB or GiB whatever they counted are numbers
    again (plain_argument)."""
    if not summary.exists():
        return {}
    sections, name = {}, None
    for line in summary.read_text().splitlines():
        if line.startswith("!["):
            continue
        line = line.replace(", debug benchmark library", "").replace(
            ", release benchmark library", "")
        if line.startswith("## "):
            name = line[3:].strip()
            sections[name] = [line]
        elif name is not None:
            sections[name].append(plain_argument(line))
    return sections


UNIT_SCALES = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


def plain_argument(line):
    """A row of a per-family ratio table with its argument cell as the numbers of the run
    name ('| 2 KiB | ...' -> '| 2048 | ...'): reports before ArgNames wrote every multiple of
    1024 in KiB, MiB or GiB, also grid sides and counts. Other lines are returned as they are."""
    match = re.match(r"^\| ([^|]+) \|", line)
    if not match or not re.search(r"\d (KiB|MiB|GiB)", match.group(1)):
        return line
    parts = []
    for part in match.group(1).split("/"):
        sized = re.fullmatch(r"(\d+) (KiB|MiB|GiB)", part)
        parts.append(str(int(sized.group(1)) * UNIT_SCALES[sized.group(2)]) if sized else part)
    return f"| {'/'.join(parts)} |" + line[match.end():]


def context_line(context):
    """When and where a file was measured, and how the measured code was built (dash_build,
    from bench/support/runner.h; files of older builds lack it)."""
    line = (f"{context.get('date', '?')}, host {context.get('host_name', '?')}, "
            f"{context.get('num_cpus', '?')} CPUs")
    if context.get("dash_build"):
        line += f", built {context['dash_build']}"
    return line


def main():
    results = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "bench/results")
    files = sorted(results.glob("*.json"))
    if not files and not (results / "summary.md").exists():
        print(f"bench_report.py: no JSON files in {results}")
        return 0
    try:
        import matplotlib
        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError:
        pyplot = None
        print("bench_report.py: matplotlib not available, writing no plots")

    summary = results / "summary.md"
    kept = previous_sections(summary)
    fresh = {path.stem: path for path in files}
    plots = results / "plots"
    if pyplot is not None:
        plots.mkdir(exist_ok=True)
    sections = ["# Benchmark results", "",
                "Written by `scripts/bench.sh` (through `scripts/bench_report.py`): one section "
                "per result file, each with its own date. The same run draws a plot per section "
                "into `bench/results/plots/` (not kept in the repository).", ""]
    for name in sorted(set(kept) | set(fresh)):
        if name not in fresh:
            sections += kept[name]  # not run this time: the previous figures
            continue
        path = fresh[name]
        context, runs = load_runs(path)
        sections += [f"## {name}", "", context_line(context), "", markdown_table(runs), ""]
        ratios = ratio_tables(runs)
        if ratios:
            sections += [ratios, ""]
        if pyplot is not None:
            plot(runs, name, plots / f"{name}.png", pyplot)
    summary.write_text("\n".join(sections))
    print(f"bench_report.py: wrote {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
