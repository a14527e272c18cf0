#!/usr/bin/env python3
"""How far this library is a drop-in for DASH: DASH's own example programs, compiled unchanged.

    scripts/dash_dropin.py --examples DIR --prefix PREFIX [--dash-repo GITDIR]
                           [--units 2 4] [--timeout 60] [--jobs 2] [--only REGEX]
                           [--baseline OLD.md] [--out bench/results/dash_dropin.md]
                           [--library-commit C] [--compile-only] [--cxxflags FLAGS] [--hdf5]

DIR holds DASH's `dash/examples` (an export of DASH's repository, e.g.
`git -C DASH.git archive HEAD dash/examples | tar -x -C /tmp/dash-src`, then DIR is
/tmp/dash-src/dash/examples or /tmp/dash-src). PREFIX is an installed prefix of this library
(it has bin/dash-mpicxx). Nothing of DASH's is copied: the programs are compiled where they lie
(their `#include "../bench.h"` resolves there), binaries and run directories go to a scratch
directory (--work, default a fresh temporary one).

For every program (a folder `DIR/<name>` with a main.cpp; a program with several sources: all
.cpp files of its folder), in order:

    compile: PREFIX/bin/dash-mpicxx -O2 <sources> -o <work>/<name>/<name>
             record: compiles or not; the first error (file:line: message, shortened; when the
             error lies in a header, also the program's line that led there) and the name it
             stops on (missing member, missing header, no matching call, ...)
    run:     for N in --units (UNITS[name] for the few that demand a unit count):
             mpiexec.openmpi --allow-run-as-root --oversubscribe -n N <binary> <ARGS[name]>
             (mpiexec.mpich -n N ... for a prefix built against MPICH)
             in <work>/<name>/run-N, killed after --timeout seconds
             record: exit status (or 'timeout'), the last line of output (of a failed run, its
             first line reporting an error)

ARGS below gives the programs that take arguments small ones, from each program's own usage
(or defaults) so that a run ends in seconds. A program "runs cleanly" when it exits with 0 at
every unit count. NOTES says what a run cannot show on this machine whatever the library does.

Writes --out (Markdown: date, DASH commit, counts, a row per program, a tally of first errors
by missing name and one of every error line; with --baseline, the baseline's counts, each
program's change and the names no program stops on any more), with the run's data in a comment
at its end, which a later run reads as --baseline. The report of a run is:

    scripts/dash_dropin.py --examples /tmp/dash-src --prefix PREFIX \\
        --dash-repo DASH.git --baseline bench/results/dash_dropin.baseline.md

(bench/results/dash_dropin.baseline.md: the run before issue 45's first changes, library
commit 9b29287.)
"""
import argparse
import concurrent.futures
import datetime
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

# Per-program arguments: small sizes and few repetitions, chosen from each program's own
# argument parser or usage text. Programs not listed run without arguments (their defaults end
# quickly or they take none).
ARGS = {
    # -nw: no sleeps between the output phases (the ex.07 programs sleep up to 20 s without it)
    "ex.07.locality": ["-nw"],
    "ex.07.locality-group": ["-nw"],
    "ex.07.locality-split": ["-nw"],
    "ex.07.locality-threads": ["-nw"],
    # usage: <input file>: a MatrixMarket graph; the program's own data folder has small ones
    # ({src} is the program's folder)
    "app.01.mindeg": ["{src}/data/494_bus.mtx"],
    # -sb: table size (elements), -rb: repetitions base
    "bench.03.gups": ["-sb", "65536", "-rb", "1"],
    # -sb: size base, -smin: smallest size, -i: iterations, -rmax: repetitions, -rmin: fewest
    # repetitions, -rb: repetitions base
    "bench.07.local-copy": ["-sb", "4", "-smin", "64", "-i", "3", "-rmax", "2", "-rmin", "1",
                            "-rb", "2"],
    "bench.08.min-element": ["-sb", "2", "-smin", "100000", "-i", "3", "-rmax", "2", "-rmin",
                             "1", "-rb", "2"],
    "bench.08.transform": ["-sb", "2", "-smin", "100000", "-i", "3", "-rmax", "2", "-rmin", "1",
                           "-rb", "2"],
    # -sb: matrix extent base, -emax: largest exponent, -rb/-rmax: repetitions, -verify 1
    "bench.10.summa": ["-sb", "64", "-emax", "2", "-rb", "1", "-rmax", "1", "-verify", "1"],
    # -sb: size base, -it: iterations, -path: the file it writes
    "bench.11.hdf-io": ["-sb", "512", "-it", "1", "-path", "dropin.hdf5"],
    # -sb: matrix extent (the program doubles it until its time limit)
    "bench.12.for_each": ["-sb", "100"],
    # -r: repetitions, -n: rounds
    "bench.13.allreduce": ["-r", "10", "-n", "2"],
    "bench.14.accumulate": ["-r", "10", "-n", "2"],
    # -r: repetitions, -n: rounds, -t: tile extent, -s: matrix extent
    "bench.15.copy": ["-r", "2", "-n", "1", "-t", "16", "-s", "64"],
    # elements per unit, start index, elements to copy
    "ex.02.array-copy": ["20", "3", "10"],
    # usage: matrix_ext iterations
    "ex.02.matrix.halo.heat_equation": ["64", "10"],
    # array size, largest key, repeats, iterations
    "ex.10.radixsort": ["4096", "1024", "1", "1"],
    # matrix extent, repetitions
    "ex.02.matrix-multiply": ["64", "1"],
}

# Programs that run at one unit count only (they say so and stop otherwise): run with it instead
# of --units.
UNITS = {
    "ex.02.halo-swap": [9],  # its TeamSpec is 3 x 3 units
    "ex.02.matrix_distribution_patterns": [6],  # "run me with 6 units"
    "ex.06.pattern-visualizer": [4],  # "must be called with 4 units"
    "ex.07.locality-group": [4],  # "require least 3 units" (and returns without finalize)
}

# What a run of a program cannot show on this machine, whatever the library does: printed with
# its row.
NOTES = {
    "bench.02.memhog": "takes no arguments: allocates 100 MB to 4 GB per unit in 25 MB steps, "
                       "longer than the time limit",
    "bench.04.histo-tf": "takes no arguments: 2^29 keys, which at 2 and 4 units take about the "
                         "time limit on two quiet cores and over it when the machine is shared "
                         "(96 s measured at 2 units with a load of 5.6 on the two cores)",
    "bench.04.histo": "it reads the other units' buffers through static_cast<int *> of their "
                      "dash::memalloc pointers, which is nullptr on every unit but the owner, as "
                      "in DASH, so it stops with a segmentation fault at more than one unit "
                      "(and at a loaded machine's pace its 2^29 keys written one by one by unit "
                      "0 take longer than the time limit)",
    "bench.11.hdf-io": "without DASH_ENABLE_HDF5 (see --hdf5) it exits with 1, as DASH's does",
    "ex.08.io-hdf5": "with --hdf5 it stops before its first HDF5 call: it fills array_b through "
                     "dash::fill(array_b.begin(), array_a.end(), ...), iterators of two arrays, "
                     "which this library refuses with InvalidArgument (DASH fills array_b up to "
                     "the position of array_a.end())",
    "ex.08.io-hdf5-stream": "with --hdf5 it stops before its first HDF5 call, as ex.08.io-hdf5 "
                            "(dash::fill(array_b.begin(), array_a.end(), ...))",
    "ex.02.matrix": "at 2 units it asks for rows 7..10 of its 8-row matrix: DASH reads past the "
                    "matrix, this library throws OutOfRange",
    "ex.02.unordered_map": "its main returns without dash::finalize(): a job whose processes "
                           "end without MPI_Finalize fails (OpenMPI's launcher exits with 1, "
                           "measured with a plain MPI program), here as with DASH",
    "ex.10.psort": "its prefix sums are read from other units without a barrier after each "
                   "unit adds its predecessors' total, so on a loaded machine a unit can take "
                   "stale sums and fill past its local part (a crash now and then, whatever the "
                   "library; three reruns at 4 units ran cleanly)",
    "ex.10.radixsort": "its own MPI exchange does not empty its buckets between passes, so from "
                       "the second pass on a unit sends more than the counts announce "
                       "(MPI_ERR_TRUNCATE) whatever the library",
}

# Programs that use HDF5 when DASH_ENABLE_HDF5 is defined (DASH's build defines it when HDF5 is
# on); with --hdf5 they are built that way, with the flags of pkg-config dash-hdf5.
HDF5_PROGRAMS = {"bench.11.hdf-io", "ex.08.io-hdf5", "ex.08.io-hdf5-stream"}

ERROR_RE = re.compile(
    r"^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?:\d+:)? (?:fatal )?error: (?P<msg>.*)$")
LINK_RE = re.compile(r"undefined reference to [`'](?P<sym>[^'`]*)'")
FROM_RE = re.compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?:\d+:)?\s+required from here")


def log(text):
    print(text, file=sys.stderr, flush=True)


def shorten(text, limit=140):
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def short_path(path, examples, prefix):
    path = os.path.normpath(path)
    for base, label in ((examples, ""), (os.path.join(prefix, "include"), "<ours>/")):
        if path.startswith(base + os.sep):
            return label + os.path.relpath(path, base)
    return path


def missing_name(msg):
    """The name a compiler error stops on, for the tally (None: not a missing-name error)."""
    msg = msg.replace("\u2018", "'").replace("\u2019", "'")
    m = re.search(r"^(?P<h>[\w./-]+\.h(?:pp)?): No such file or directory", msg)
    if m:
        return f"header {m['h']}"
    scoped = r"'(?P<n>[^']+)' (?:in namespace|is not a member of|has not been declared in) " \
        r"'(?P<s>[^']+)'"
    patterns = [
        (scoped, "{s}::{n}"),
        (r"^'(?P<n>[^']+)' in '(?:class|struct) (?P<s>[^']+)' does not name a type", "{s}::{n}"),
        (r"^no type named '(?P<n>[^']+)' in '(?:class |struct )?(?P<s>[^']+)'", "{s}::{n}"),
        (r"^'(?:const )?(?:class |struct )?(?P<s>[^']+)' has no member named '(?P<n>[^']+)'",
         "{s}::{n}"),
        (r"^there are no arguments to '(?P<n>[^']+)'", "{n}"),
        (r"^'(?P<n>[^']+)' was not declared in this scope", "{n}"),
        (r"^'(?P<n>[^']+)' does not name a type", "{n}"),
        (r"^'(?P<n>[^']+)' has not been declared", "{n}"),
        (r"^no matching function for call to '(?P<n>[^'(]+)\(", "{n}(...): no overload"),
        (r"^invalid use of incomplete type '(?P<n>[^']+)'", "incomplete {n}"),
        (r"^'(?P<n>[^']+)' is not a template", "{n} (not a template)"),
    ]
    for pattern, fmt in patterns:
        m = re.search(pattern, msg)
        if m:
            name = fmt.format(**m.groupdict())
            # dash::Matrix<int, 2, ...> -> dash::Matrix: the tally counts names, not instances
            return re.sub(r"<[^<>]*(?:<[^<>]*>[^<>]*)*>", "", name)
    return None


def first_error(stderr, examples, prefix):
    """(location and message, the program line that led there or '', missing name)."""
    lines = stderr.splitlines()
    last_from = ""
    for line in lines:
        f = FROM_RE.match(line)
        if f and os.path.normpath(f["file"]).startswith(examples + os.sep):
            last_from = f"{short_path(f['file'], examples, prefix)}:{f['line']}"
        m = ERROR_RE.match(line)
        if m:
            where = f"{short_path(m['file'], examples, prefix)}:{m['line']}"
            msg = m["msg"]
            if where.startswith("<ours>") and not last_from:
                # the program's line is in the "In file included from" / instantiation chain
                for prev in lines[:lines.index(line)]:
                    g = re.match(r"^(?:In file included from |\s+from )?(?P<file>[^:\s][^:]*):"
                                 r"(?P<line>\d+)", prev.strip())
                    if g and os.path.normpath(g["file"]).startswith(examples + os.sep):
                        last_from = f"{short_path(g['file'], examples, prefix)}:{g['line']}"
            return f"{where}: {shorten(msg)}", last_from, missing_name(msg)
    for line in lines:
        m = LINK_RE.search(line)
        if m:
            sym = shorten(m["sym"], 100)
            return f"link: undefined reference to `{sym}'", "", "link: " + re.sub(r"\(.*", "", sym)
    tail = [line for line in lines if line.strip()]
    return shorten(tail[-1] if tail else "(no output)"), "", None


def hdf5_flags(prefix):
    env = dict(os.environ)
    env["PKG_CONFIG_PATH"] = os.path.join(prefix, "lib", "pkgconfig") + \
        (os.pathsep + env["PKG_CONFIG_PATH"] if env.get("PKG_CONFIG_PATH") else "")
    proc = subprocess.run(["pkg-config", "--cflags", "--libs", "dash-hdf5"], env=env,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("dash_dropin.py: --hdf5: pkg-config dash-hdf5 failed: " + proc.stderr.strip())
    return ["-DDASH_ENABLE_HDF5", *proc.stdout.split()]


def all_missing(stderr):
    """Every error line's missing name -> how many lines name it (what the program needs
    beyond its first error, as far as the compiler got; later lines may be consequences)."""
    names = {}
    for line in stderr.splitlines():
        m = ERROR_RE.match(line)
        name = missing_name(m["msg"]) if m else None
        if name:
            names[name] = names.get(name, 0) + 1
    return names


def examples_dir(path):
    """DASH's dash/examples folder given as itself or as the export it lies in."""
    examples = os.path.abspath(path)
    if os.path.isdir(os.path.join(examples, "dash", "examples")):
        examples = os.path.join(examples, "dash", "examples")
    return examples


# How run_mpi starts a job: the launcher of the MPI the installed prefix was built against
# (installed_prefix sets it from the prefix's dash.pc).
LAUNCHERS = {"openmpi": ["mpiexec.openmpi", "--allow-run-as-root", "--oversubscribe"],
             "mpich": ["mpiexec.mpich"]}
MPI = "openmpi"


def installed_prefix(path, script):
    """path as an absolute installed prefix of this library; exits if it has no dash-mpicxx.
    Sets MPI (and so run_mpi's launcher) to the MPI its pkgconfig/dash.pc names."""
    global MPI
    prefix = os.path.abspath(path)
    if not os.access(os.path.join(prefix, "bin", "dash-mpicxx"), os.X_OK):
        sys.exit(f"{script}: {prefix}/bin/dash-mpicxx is missing: not an installed prefix")
    for pc in glob.glob(os.path.join(prefix, "lib*", "**", "dash.pc"), recursive=True):
        with open(pc) as f:
            found = re.search(r"built against (\w+)", f.read())
        if found and found.group(1) in LAUNCHERS:
            MPI = found.group(1)
            break
    return prefix


def compile_program(name, examples, prefix, work, extra_flags):
    folder = os.path.join(examples, name)
    sources = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".cpp"))
    out_dir = os.path.join(work, name)
    os.makedirs(out_dir, exist_ok=True)
    binary = os.path.join(out_dir, name)
    cmd = [os.path.join(prefix, "bin", "dash-mpicxx"), "-O2", *sources, "-o", binary,
           *extra_flags]
    # LC_ALL=C: plain quotes in the compiler's messages, which the tally reads
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                          env=dict(os.environ, LC_ALL="C"))
    with open(os.path.join(out_dir, "compile.log"), "w") as f:
        f.write(" ".join(cmd) + "\n" + proc.stdout + proc.stderr)
    result = {"name": name, "sources": [os.path.basename(s) for s in sources],
              "compiles": proc.returncode == 0 and os.path.exists(binary)}
    if not result["compiles"]:
        result["error"], result["error_from"], result["missing"] = first_error(
            proc.stderr, examples, prefix)
        result["all_missing"] = all_missing(proc.stderr)
    return result, binary


def program_output(text):
    """The lines with words in them, without mpiexec's epilogue (the block framed by lines of
    dashes that it adds when a unit fails or is killed)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.fullmatch(r"-{20,}", line.strip()):
            lines = lines[:i]
            break
    return [line for line in lines if re.search(r"\w", line)]


def run_summary(text, status):
    """The last line of the program's output; for a failed run, its first line that reports
    an error (an exception, an MPI error, a failed check), if it has one."""
    lines = program_output(text)
    if status != "0":
        for line in lines:
            if re.search(r"error|exception|abort|fail|terminate|signal", line, re.IGNORECASE):
                return shorten(line, 100)
    return shorten(lines[-1], 100) if lines else "(no output)"


def run_mpi(binary, args, units, run_dir, timeout):
    """Runs binary on `units` units under the launcher of the prefix's MPI (LAUNCHERS) in a fresh
    run_dir (killed after timeout seconds); returns (exit status or 'timeout', output), the
    output also in run_dir/output.log."""
    shutil.rmtree(run_dir, ignore_errors=True)
    os.makedirs(run_dir)
    cmd = [*LAUNCHERS[MPI], "-n", str(units), binary, *args]
    # Own process group: a timeout ends mpiexec and every unit it started, nothing else.
    proc = subprocess.Popen(cmd, cwd=run_dir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, errors="replace", start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=timeout)
        status = str(proc.returncode)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        status = "timeout"
    with open(os.path.join(run_dir, "output.log"), "w") as f:
        f.write(" ".join(cmd) + "\n" + output)
    return status, output


def run_program(name, binary, src_dir, units, timeout, work):
    status, output = run_mpi(binary, [a.replace("{src}", src_dir) for a in ARGS.get(name, [])],
                             units, os.path.join(work, name, f"run-{units}"), timeout)
    return {"status": status, "last": run_summary(output, status)}


def dash_commit(repo):
    if not repo:
        return "unknown (no --dash-repo)"
    try:
        out = subprocess.run(["git", "-C", repo, "log", "-1", "--format=%H (%cs)"],
                             capture_output=True, text=True, check=True).stdout.strip()
        return out
    except (subprocess.CalledProcessError, FileNotFoundError):
        return f"unknown ({repo} is not a git repository)"


def runs_cleanly(result):
    """Compiled, ran (at its unit counts) and exited with 0 every time."""
    return result["compiles"] and bool(result["runs"]) and \
        all(run["status"] == "0" for run in result["runs"].values())


def counts(results):
    return sum(r["compiles"] for r in results), sum(runs_cleanly(r) for r in results)


def md_cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def report(data, baseline):
    units = data["units"]
    results = data["results"]
    total = len(results)
    compiled, clean = counts(results)
    unit_text = " and ".join(str(n) for n in units)
    lines = [
        "# DASH drop-in: DASH's example programs compiled unchanged", "",
        f"`scripts/dash_dropin.py` ({data['date']}): every program of DASH's `dash/examples` "
        f"(DASH commit {data['dash_commit']}) compiled unchanged with `dash-mpicxx -O2` against "
        "this library's installed prefix, and the ones that compile run at "
        f"{unit_text} units ({data.get('mpi', 'openmpi')}, {data['timeout']} s limit, small "
        "arguments from the "
        "script's table; a program that demands a unit count runs at that one only: "
        + ", ".join(f"{k} at {', '.join(map(str, v))} units" for k, v in UNITS.items())
        + "). A program runs cleanly "
        "when it exits with 0 at every unit count. "
        + ("The HDF5 programs are built with `-DDASH_ENABLE_HDF5` and `pkg-config dash-hdf5` "
           "(`--hdf5`)." if data.get("hdf5") else
           "`DASH_ENABLE_HDF5` is not defined (as in a DASH build without HDF5): the HDF5 "
           "programs build their no-HDF5 branch (`--hdf5` builds them with it)."), "",
        f"- **{compiled} of {total} compile**, **{clean} run cleanly at {unit_text} units**.",
    ]
    base_by_name = {}
    if baseline:
        b_compiled, b_clean = counts(baseline["results"])
        lines.append(f"- Baseline ({baseline['date']}, library commit "
                     f"{baseline.get('library_commit', '?')}): {b_compiled} of "
                     f"{len(baseline['results'])} compiled, {b_clean} ran cleanly.")
        base_by_name = {r["name"]: r for r in baseline["results"]}
    lines.append(f"- Library commit: {data.get('library_commit', '?')}.")
    header = "| program | compiles | first error, or run result at " + \
        ", ".join(f"{n}" for n in units) + " units |"
    lines += ["", "## Per program", "",
              "A run result is `exit status: last line of output` (of a failed run: its first "
              "line that reports an error). The first error is where the "
              "compiler stopped first (`<ours>/` is this library's installed headers), with the "
              "program's line that led there.", ""]
    if baseline:
        header += " baseline |"
    lines.append(header)
    lines.append("|---|---|---|" + ("---|" if baseline else ""))
    for r in results:
        if r["compiles"]:
            cell = "<br>".join(f"{n}: {run['status']}: {run['last']}"
                               for n, run in r["runs"].items()) or "not run"
        else:
            cell = r["error"] + (f" (from {r['error_from']})" if r.get("error_from") else "")
        if r["name"] in NOTES:
            cell += f" ({NOTES[r['name']]})"
        row = f"| {r['name']} | {'yes' if r['compiles'] else 'no'} | {md_cell(cell)} |"
        if baseline:
            old = base_by_name.get(r["name"])
            if old is None:
                row += " (not in baseline) |"
            elif not old["compiles"]:
                row += " did not compile |"
            else:
                row += " compiled, " + ("ran cleanly" if runs_cleanly(old) else "run failed") + " |"
        lines.append(row)
    tally = {}
    for r in results:
        if not r["compiles"]:
            tally.setdefault(r.get("missing") or "other: " + r["error"].split(": ", 1)[-1][:60],
                             []).append(r["name"])
    base_tally = {}
    for r in (baseline or {}).get("results", []):
        if not r["compiles"]:
            base_tally.setdefault(r.get("missing") or "other", []).append(r["name"])
    lines += ["", "## First errors by missing name", "",
              "How many programs stop first on each name (a program stops on one; what it "
              "needs after that shows only once this is there)"
              + (", and how many stopped on it in the baseline." if baseline else "."), "",
              "| name | programs | which |" + (" baseline |" if baseline else ""),
              "|---|---:|---|" + ("---:|" if baseline else "")]
    for name, progs in sorted(tally.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"| {md_cell(name)} | {len(progs)} | {', '.join(progs)} |"
                     + (f" {len(base_tally.get(name, []))} |" if baseline else ""))
    if baseline:
        gone = sorted(n for n in base_tally if n not in tally)
        if gone:
            lines += ["", "No program stops first on these any more (baseline count): " +
                      ", ".join(f"{md_cell(n)} ({len(base_tally[n])})" for n in gone) + "."]
    every = {}
    for r in results:
        for name, count in r.get("all_missing", {}).items():
            entry = every.setdefault(name, [0, 0])
            entry[0] += 1
            entry[1] += count
    if every:
        lines += ["", "## Every error line by missing name", "",
                  "Over all error lines of the programs that do not compile (the compiler goes "
                  "on after the first error, so this shows what comes next; some lines are "
                  "consequences of earlier ones): the programs naming each, and the lines.", "",
                  "| name | programs | error lines |", "|---|---:|---:|"]
        for name, (progs, count) in sorted(every.items(), key=lambda kv: (-kv[1][0], -kv[1][1],
                                                                          kv[0]))[:40]:
            lines.append(f"| {md_cell(name)} | {progs} | {count} |")
    failed_runs = [r for r in results if r["compiles"] and r["runs"] and not runs_cleanly(r)]
    if failed_runs:
        lines += ["", "## Compile but do not run cleanly", ""]
        for r in failed_runs:
            lines.append(f"- {r['name']}: " + "; ".join(
                f"{n} units: {run['status']} ({run['last']})" for n, run in r["runs"].items())
                + (f". {NOTES[r['name']]}" if r["name"] in NOTES else ""))
    return "\n".join(lines) + "\n"


DATA_TAG = "dash_dropin.py data"


def embedded(data):
    """The run's data as a comment at the end of the report, for a later run's --baseline (a
    comment may not hold "--": JSON escapes the second dash)."""
    text = json.dumps(data, separators=(",", ":")).replace("--", "-\\u002d")
    return f"\n<!-- {DATA_TAG}: {text} -->\n"


def load_data(path):
    """The data of an earlier run: its report (the embedded comment) or a JSON file."""
    with open(path) as f:
        text = f.read()
    if path.endswith(".json"):
        return json.loads(text)
    m = re.search(r"<!-- " + re.escape(DATA_TAG) + r": (.*) -->", text)
    if not m:
        sys.exit(f"dash_dropin.py: {path} holds no '{DATA_TAG}' comment: not a report of it")
    return json.loads(m[1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", required=True,
                        help="DASH's dash/examples, or a directory holding dash/examples")
    parser.add_argument("--prefix", required=True, help="installed prefix of this library")
    parser.add_argument("--dash-repo", help="DASH's git directory (for the commit it records)")
    parser.add_argument("--units", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--timeout", type=int, default=60, help="seconds per run")
    parser.add_argument("--jobs", type=int, default=2, help="compilations at once")
    parser.add_argument("--only", default="", help="regex: only programs whose name matches")
    parser.add_argument("--work", help="scratch directory for binaries and runs")
    parser.add_argument("--baseline", help="the report (or JSON) of an earlier run to compare with")
    parser.add_argument("--out", default="bench/results/dash_dropin.md")
    parser.add_argument("--library-commit",
                        help="the commit PREFIX was built from (default: this checkout's HEAD)")
    parser.add_argument("--compile-only", action="store_true",
                        help="compile, do not run (the report then has no run results)")
    parser.add_argument("--cxxflags", default="",
                        help="more compiler flags for every program, e.g. "
                        "-DDASH_ENABLE_ASSERTIONS")
    parser.add_argument("--hdf5", action="store_true",
                        help="build the HDF5 programs with DASH_ENABLE_HDF5 and dash-hdf5")
    args = parser.parse_args()

    examples = examples_dir(args.examples)
    prefix = installed_prefix(args.prefix, "dash_dropin.py")
    names = sorted(d for d in os.listdir(examples)
                   if os.path.isfile(os.path.join(examples, d, "main.cpp"))
                   and re.search(args.only, d))
    if not names:
        sys.exit(f"dash_dropin.py: no program folders (with main.cpp) in {examples}")
    work = args.work or tempfile.mkdtemp(prefix="dash_dropin.")
    os.makedirs(work, exist_ok=True)
    log(f"dash_dropin.py: {len(names)} programs from {examples}, work directory {work}")

    results = {}
    binaries = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        h5 = hdf5_flags(prefix) if args.hdf5 else []
        futures = {pool.submit(compile_program, n, examples, prefix, work,
                               args.cxxflags.split() + (h5 if n in HDF5_PROGRAMS else [])): n
                   for n in names}
        for k, future in enumerate(concurrent.futures.as_completed(futures), 1):
            result, binary = future.result()
            results[result["name"]] = result
            binaries[result["name"]] = binary
            log(f"[{k}/{len(names)}] {result['name']}: " +
                ("compiles" if result["compiles"] else result["error"]))
    for name in names:
        r = results[name]
        r["runs"] = {}
        if not r["compiles"] or args.compile_only:
            continue
        for n in UNITS.get(name, args.units):
            r["runs"][str(n)] = run_program(name, binaries[name], os.path.join(examples, name), n,
                                           args.timeout, work)
            log(f"run {name} on {n} units: {r['runs'][str(n)]['status']}: "
                f"{r['runs'][str(n)]['last']}")

    here = os.path.dirname(os.path.abspath(__file__))
    library_commit = args.library_commit or subprocess.run(
        ["git", "-C", here, "log", "-1", "--format=%h"],
        capture_output=True, text=True).stdout.strip() or "?"
    data = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "dash_commit": dash_commit(args.dash_repo),
        "library_commit": library_commit,
        "units": args.units,
        "timeout": args.timeout,
        "hdf5": args.hdf5,
        "mpi": MPI,
        "results": [results[n] for n in names],
    }
    baseline = load_data(args.baseline) if args.baseline else None
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(report(data, baseline) + embedded(data))
    compiled, clean = counts(data["results"])
    print(f"dash_dropin.py: {compiled} of {len(names)} compile, {clean} run cleanly at "
          f"{' and '.join(map(str, args.units))} units; wrote {args.out}")


if __name__ == "__main__":
    main()
