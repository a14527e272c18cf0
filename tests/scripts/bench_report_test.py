#!/usr/bin/env python3
"""Checks scripts/bench_report.py's reading of an existing summary.md: kept sections keep
their lines, but arguments an older report wrote in KiB, MiB or GiB become the run name's
numbers again (a grid side of 2048 is not '2 KiB'). Exits 1 with the differences."""
import importlib.util
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("bench_report", ROOT / "scripts" / "bench_report.py")
report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(report)

failures = []


def expect(got, want, what):
    if got != want:
        failures.append(f"{what}:\n  got  {got!r}\n  want {want!r}")


cases = [
    ("| 2 KiB | 3.82e+06 | 1.003 |", "| 2048 | 3.82e+06 | 1.003 |"),
    ("| 16 MiB | 0.272 |", "| 16777216 | 0.272 |"),
    ("| 3 GiB | 1 |", "| 3221225472 | 1 |"),
    ("| 4 KiB/512/1 MiB | 7 |", "| 4096/512/1048576 | 7 |"),
    ("| 512 | 1.25e+05 |", "| 512 | 1.25e+05 |"),  # already a number
    ("| n:2048 | 1.0 |", "| n:2048 | 1.0 |"),  # a named argument
    ("| BM_x/2048 | 3 KiB |", "| BM_x/2048 | 3 KiB |"),  # a size in another column
    ("| argument | dash ns/step |", "| argument | dash ns/step |"),
    ("Ratios: time(dash) / time(baseline), 2 KiB", "Ratios: time(dash) / time(baseline), 2 KiB"),
]
for line, want in cases:
    expect(report.plain_argument(line), want, f"plain_argument({line!r})")

summary = """# Benchmark results

## halo

2026-11-27, host vm, 2 CPUs

| benchmark | time (real) |
|---|---:|
| BM_halo_jacobi/2048/iterations:60/manual_time | 3.823 ms |

### BM_halo_jacobi

| argument | dash ns/step |
|---|---:|
| 2 KiB | 3.82e+06 |

![plot](plots/halo.png)
## io

| 1 MiB | 5 |
"""
with tempfile.TemporaryDirectory() as tmp:
    path = pathlib.Path(tmp) / "summary.md"
    path.write_text(summary)
    sections = report.previous_sections(path)
expect(sorted(sections), ["halo", "io"], "section names")
expect(sections.get("halo", [])[-2:], ["| 2048 | 3.82e+06 |", ""], "halo's ratio row")
expect(sections.get("halo", [])[6], "| BM_halo_jacobi/2048/iterations:60/manual_time | 3.823 ms |",
       "halo's main table row")
expect(any(line.startswith("![") for line in sections.get("halo", [])), False, "plot link dropped")
expect(sections.get("io", [])[-1], "| 1048576 | 5 |", "io's row")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print(f"bench_report: {len(cases) + 5} checks passed")
