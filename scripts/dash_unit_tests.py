#!/usr/bin/env python3
"""How far this library is a drop-in for DASH: DASH's own unit tests, compiled unchanged.

    scripts/dash_unit_tests.py --dash-repo GITDIR --prefix PREFIX [--units 1 2 4]
                               [--timeout 120] [--jobs 2] [--only REGEX] [--work DIR]
                               [--out bench/results/dash_unit_tests.md] [--library-commit C]
                               [--compile-only] [--cxxflags FLAGS] [--hdf5]

GITDIR is DASH's git directory (e.g. the mirror /work/.mirror/dash-project+dash/repo); its
`dash/test` folder is exported (git archive) into a scratch directory (--work, default a fresh
temporary one) and compiled there: nothing of DASH's enters this repository. PREFIX is an
installed prefix of this library (bin/dash-mpicxx). The tests are built as DASH builds them:
its main.cc (its TestBase.h, TestPrinter.h, TestGlobals.h) once, then every test source
(`<area>/<Name>Test.cc` and the two at the folder's top) on its own with that main, with
`-DMPI_SUPPORT` and GoogleTest:

    compile: PREFIX/bin/dash-mpicxx -O0 -g0 -DMPI_SUPPORT -I<test dir> -c <source>
             record: compiles or not, the first error and the name it stops on (as
             scripts/dash_dropin.py reads them)
    run:     for N in --units: mpiexec.openmpi --allow-run-as-root --oversubscribe -n N <binary>
             (mpiexec.mpich -n N <binary> for a prefix built against MPICH)
             killed after --timeout seconds
             record: exit status (or 'timeout'), the tests passed and failed (from DASH's
             printer: "N tests passed", "N tests, listed below") and the first failure

With --hdf5 every file is built as DASH builds it with HDF5 on: `-DDASH_ENABLE_HDF5` and the
flags of `pkg-config dash-hdf5` (PREFIX's), so its HDF5 tests (io/HDF5ArrayTest.cc,
io/HDF5MatrixTest.cc) are compiled in and run; without it DASH compiles them out.

A file "passes" when it compiles, every run exits with 0 and tests ran. Writes --out (Markdown:
date, DASH commit, counts, a row per file, a tally of first errors by missing name) with the
run's data in a comment at its end.
"""
import argparse
import concurrent.futures
import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dash_dropin  # noqa: E402  (its MPI is set by installed_prefix)
from dash_dropin import (all_missing, dash_commit, embedded, first_error,  # noqa: E402
                         hdf5_flags, md_cell, log, run_mpi)

FLAGS = ["-O0", "-g0", "-DMPI_SUPPORT"]


def export_tests(repo, work):
    """DASH's dash/test folder exported into work/src; returns its path."""
    src = os.path.join(work, "src")
    shutil.rmtree(src, ignore_errors=True)
    os.makedirs(src)
    archive = subprocess.Popen(["git", "-C", repo, "archive", "HEAD", "dash/test"],
                               stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", src], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        sys.exit(f"dash_unit_tests.py: git archive of dash/test in {repo} failed")
    return os.path.join(src, "dash", "test")


def test_sources(tests, only):
    """Relative paths of the test sources: every .cc but main.cc."""
    found = []
    for root, _, files in os.walk(tests):
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), tests)
            if f.endswith(".cc") and rel != "main.cc" and re.search(only, rel):
                found.append(rel)
    return sorted(found)


def compile_one(cmd, log_path):
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                          env=dict(os.environ, LC_ALL="C"))
    with open(log_path, "w") as f:
        f.write(" ".join(cmd) + "\n" + proc.stdout + proc.stderr)
    return proc


def build_file(rel, tests, prefix, work, main_obj, extra, link_extra):
    """Compiles and links one test source with DASH's main; returns (result, binary)."""
    name = rel[:-3].replace("/", ".")
    out = os.path.join(work, name)
    os.makedirs(out, exist_ok=True)
    cxx = os.path.join(prefix, "bin", "dash-mpicxx")
    obj, binary = os.path.join(out, "test.o"), os.path.join(out, name)
    result = {"name": name, "source": rel, "compiles": False}
    proc = compile_one([cxx, *FLAGS, *extra, "-I", tests, "-c", os.path.join(tests, rel),
                        "-o", obj], os.path.join(out, "compile.log"))
    if proc.returncode == 0:
        proc = compile_one([cxx, obj, main_obj, "-o", binary, *link_extra, "-lgtest", "-pthread"],
                           os.path.join(out, "link.log"))
    if proc.returncode == 0 and os.path.exists(binary):
        result["compiles"] = True
    else:
        result["error"], result["error_from"], result["missing"] = first_error(
            proc.stderr, tests, prefix)
        result["all_missing"] = all_missing(proc.stderr)
    return result, binary


def run_file(name, binary, units, timeout, work):
    status, output = run_mpi(binary, [], units, os.path.join(work, name, f"run-{units}"),
                             timeout)
    output = re.sub(r"\x1b\[[0-9;]*m", "", output)  # DASH's printer colours its lines
    passed = re.findall(r"(\d+) tests passed", output)
    failed = re.findall(r"(\d+) tests, listed below", output)
    first = ""
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if re.search(r"\[UNIT \d+\] in |Failure|exception|Segmentation|signal", line):
            first = " ".join(x.strip() for x in lines[i:i + 3])
            break
    return {"status": status, "passed": int(passed[0]) if passed else None,
            "failed": int(failed[0]) if failed else 0, "first_failure": first[:160]}


def clean(result):
    """Compiled, ran and exited with 0 at every unit count."""
    return result["compiles"] and bool(result["runs"]) and \
        all(run["status"] == "0" for run in result["runs"].values())


def no_test_ran(result):
    """Ran cleanly without running a test (DASH compiles them out without its options)."""
    return clean(result) and all(not run["passed"] for run in result["runs"].values())


def passes(result):
    return clean(result) and not no_test_ran(result)


def report(data):
    results = data["results"]
    compiled = sum(r["compiles"] for r in results)
    passing = sum(passes(r) for r in results)
    units = " and ".join(map(str, data["units"]))
    out = ["# DASH drop-in: DASH's unit tests compiled unchanged", "",
           f"`scripts/dash_unit_tests.py` ({data['date']}): every test source of DASH's "
           f"`dash/test` (DASH commit {data['dash_commit']}) compiled unchanged with DASH's own "
           f"main.cc, TestBase.h and printer against this library's installed prefix "
           f"(`dash-mpicxx {' '.join(FLAGS + data.get('extra', []))}`, GoogleTest), "
           f"run at {units} units ({data.get('mpi', 'openmpi')}, "
           f"{data['timeout']} s limit). A file passes when every run exits with 0 and runs tests.",
           "",
           f"- **{compiled} of {len(results)} compile**, **{passing} pass at {units} units**"
           f" ({sum(no_test_ran(r) for r in results)} more run no test, DASH compiles them out "
           f"(`#if 0`, or without its build options such as DASH_ENABLE_HDF5 and "
           f"DASH_ENABLE_THREADSUPPORT): "
           f"{', '.join(r['source'] for r in results if no_test_ran(r)) or 'none'}). "
           f"Why the others fail: docs/porting-from-dash.md.",
           f"- Library commit: {data['library_commit']}.", "",
           "| test file | compiles | first error, or tests passed/failed per unit count |",
           "|---|---|---|"]
    for r in results:
        if not r["compiles"]:
            where = r["error"] + (f" (from {r['error_from']})" if r.get("error_from") else "")
            out.append(f"| {r['source']} | no | {md_cell(where)} |")
            continue
        cells = []
        for n, run in r["runs"].items():
            if run["status"] == "0":
                cells.append(f"{n}: {run['passed']} passed")
            else:
                cells.append(f"{n}: exit {run['status']}, {run['passed'] or 0} passed, "
                             f"{run['failed']} failed: {run['first_failure']}")
        out.append(f"| {r['source']} | yes | {md_cell('<br>'.join(cells) or 'not run')} |")
    tally = {}
    for r in results:
        if not r["compiles"]:
            key = r.get("missing") or "other: " + r["error"].split(": ", 1)[-1][:60]
            tally.setdefault(key, []).append(r["source"])
    if tally:
        out += ["", "## First errors by missing name", "",
                "| name | files | which |", "|---|---:|---|"]
        for key, files in sorted(tally.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            out.append(f"| {md_cell(key)} | {len(files)} | {md_cell(', '.join(files))} |")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dash-repo", required=True, help="DASH's git directory")
    parser.add_argument("--prefix", required=True, help="installed prefix of this library")
    parser.add_argument("--units", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--timeout", type=int, default=120, help="seconds per run")
    parser.add_argument("--jobs", type=int, default=2, help="compilations at once")
    parser.add_argument("--only", default="", help="regex on the source path")
    parser.add_argument("--work", help="scratch directory")
    parser.add_argument("--out", default="bench/results/dash_unit_tests.md")
    parser.add_argument("--library-commit")
    parser.add_argument("--compile-only", action="store_true")
    parser.add_argument("--cxxflags", default="")
    parser.add_argument("--hdf5", action="store_true",
                        help="build with DASH_ENABLE_HDF5 and pkg-config dash-hdf5")
    args = parser.parse_args()

    prefix = dash_dropin.installed_prefix(args.prefix, "dash_unit_tests.py")
    work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="dash_unit_tests."))
    os.makedirs(work, exist_ok=True)
    tests = export_tests(args.dash_repo, work)
    sources = test_sources(tests, args.only)
    if not sources:
        sys.exit("dash_unit_tests.py: no test sources selected")
    log(f"dash_unit_tests.py: {len(sources)} test sources, work directory {work}")
    extra = args.cxxflags.split()
    link_extra = []
    if args.hdf5:
        h5 = hdf5_flags(prefix)
        for flag in h5:
            if not flag.startswith(("-l", "-L")) and flag not in extra:
                extra.append(flag)
        link_extra = [f for f in h5 if f.startswith(("-l", "-L"))]
    main_obj = os.path.join(work, "main.o")
    proc = compile_one([os.path.join(prefix, "bin", "dash-mpicxx"), *FLAGS, *extra, "-I", tests,
                        "-c", os.path.join(tests, "main.cc"), "-o", main_obj],
                       os.path.join(work, "main.compile.log"))
    results = {}
    binaries = {}
    if proc.returncode != 0:
        error, origin, missing = first_error(proc.stderr, tests, prefix)
        log(f"dash_unit_tests.py: DASH's main.cc does not compile: {error}")
        for rel in sources:
            name = rel[:-3].replace("/", ".")
            results[name] = {"name": name, "source": rel, "compiles": False,
                             "error": "main.cc: " + error, "error_from": origin,
                             "missing": missing, "all_missing": all_missing(proc.stderr)}
    else:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = [pool.submit(build_file, rel, tests, prefix, work, main_obj, extra,
                                   link_extra)
                       for rel in sources]
            for k, future in enumerate(concurrent.futures.as_completed(futures), 1):
                result, binary = future.result()
                results[result["name"]] = result
                binaries[result["name"]] = binary
                log(f"[{k}/{len(sources)}] {result['source']}: " +
                    ("compiles" if result["compiles"] else result["error"]))
    ordered = [results[rel[:-3].replace("/", ".")] for rel in sources]
    for r in ordered:
        r["runs"] = {}
        if not r["compiles"] or args.compile_only:
            continue
        for n in args.units:
            r["runs"][str(n)] = run_file(r["name"], binaries[r["name"]], n, args.timeout, work)
            run = r["runs"][str(n)]
            log(f"run {r['source']} on {n} units: {run['status']}, {run['passed']} passed, "
                f"{run['failed']} failed")
    here = os.path.dirname(os.path.abspath(__file__))
    data = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "dash_commit": dash_commit(args.dash_repo),
        "library_commit": args.library_commit or subprocess.run(
            ["git", "-C", here, "log", "-1", "--format=%h"], capture_output=True,
            text=True).stdout.strip() or "?",
        "units": args.units, "timeout": args.timeout, "results": ordered,
        "mpi": dash_dropin.MPI,
        "extra": [f for f in extra if f.startswith("-D")],
    }
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(report(data) + embedded(data))
    print(f"dash_unit_tests.py: {sum(r['compiles'] for r in ordered)} of {len(ordered)} compile, "
          f"{sum(passes(r) for r in ordered)} pass; wrote {args.out}")


if __name__ == "__main__":
    main()
