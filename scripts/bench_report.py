#!/usr/bin/env python3
"""Turns the Google Benchmark JSON files of a results folder into summary.md (one Markdown
table per file) and, when matplotlib is importable, one PNG per file plotting each benchmark
family over its last numeric argument (bandwidth when the benchmark reports bytes/s).

Benchmarks that measure their baselines themselves (bench/containers.cc, algorithms.cc, ...)
report the counters ns_per_<item>, <baseline>_ns_per_<item> and ratio_vs_<baseline>; their
file also gets one table per benchmark family with those figures side by side. Sections of an
existing summary.md whose benchmark has no JSON file this time are kept as they were (with
their own dates), so a partial run (scripts/bench.sh <name>) updates only its own sections.

usage: scripts/bench_report.py [results-dir]      (default: bench/results)
"""
import json
import pathlib
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


def argument_of(name):
    """The argument part of a run name ('BM_x/4096/manual_time' -> '4096'), sizes readable."""
    parts = name_parts(name)[1:]
    text = "/".join(parts)
    if text.isdigit():
        value = int(text)
        for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
            if value >= scale and value % scale == 0:
                return f"{value // scale} {unit}"
    return text


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
    families = {}
    for run in runs:
        parts = name_parts(run["name"])
        if run.get("error_occurred") or len(parts) < 2 or not parts[-1].isdigit():
            continue
        bandwidth = run.get("bytes_per_second")
        value = bandwidth / 1e9 if bandwidth else run["real_time"]
        families.setdefault(parts[0], []).append((int(parts[-1]), value))
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
    axes.set_xlabel("argument (bytes)")
    axes.set_ylabel("bandwidth (GB/s)" if use_bandwidth else "time")
    axes.set_title(title)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(png_path, dpi=100)
    pyplot.close(figure)
    return True


def previous_sections(summary):
    """The '## name' sections of an existing summary.md, by name, so that figures of
    benchmarks not run this time are kept (with their own dates)."""
    if not summary.exists():
        return {}
    sections, name = {}, None
    for line in summary.read_text().splitlines():
        if line.startswith("## "):
            name = line[3:].strip()
            sections[name] = [line]
        elif name is not None:
            sections[name].append(line)
    return sections


def main():
    results = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "bench/results")
    files = sorted(results.glob("*.json"))
    if not files:
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
    sections = ["# Benchmark results", ""]
    for name in sorted(set(kept) | set(fresh)):
        if name not in fresh:
            sections += kept[name]  # not run this time: the previous figures
            continue
        path = fresh[name]
        context, runs = load_runs(path)
        sections += [f"## {name}", "",
                     f"{context.get('date', '?')}, host {context.get('host_name', '?')}, "
                     f"{context.get('num_cpus', '?')} CPUs, "
                     f"{context.get('library_build_type', '?')} benchmark library", "",
                     markdown_table(runs), ""]
        ratios = ratio_tables(runs)
        if ratios:
            sections += [ratios, ""]
        if pyplot is not None and plot(runs, name, results / f"{name}.png", pyplot):
            sections += [f"![{name}]({name}.png)", ""]
    summary.write_text("\n".join(sections))
    print(f"bench_report.py: wrote {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
