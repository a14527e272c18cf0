#!/usr/bin/env python3
"""Programs of this project beside DIY doing the same work (ooc-reduce, hot potato).

examples/ooc-reduce is written to bench/results/diy.{json,md} (with DASH_MPI=mpich,
diy.mpich.{json,md}), bench/hot_potato to bench/results/diy_hot_potato.{json,md}.

    scripts/bench_diy.py DIY_SOURCE [--workload ooc-reduce|hot-potato] [--build DIR]
                         [--reps N] [--units 2,4] [--inner-reps 20] [--quick]

DIY_SOURCE is a DIY source tree (e.g. a snapshot of github.com/diatomic/diy); DIY is not a
dependency of this project and nothing of it enters the repository: the script compiles the
workload's port (bench/diy/ooc_reduce_diy.cc or hot_potato_diy.cc: the same work written
against DIY's API, the same checksum) against it with the MPI of the build (DASH_MPI, default
openmpi) into the build directory, then runs ours and the port interleaved (repetition r of
every case before repetition r + 1; medians over the repetitions).

--workload ooc-reduce (the default; --reps default 3):

  ops      alltoall (dash::bp::all_to_all / diy::all_to_all), merge and swap (k = 2 reductions)
  units    2 and 4, 8 blocks per unit
  blocks   1 MiB and 4 MiB (16384 and 65536 items of 64 bytes)
  memory   all blocks in memory; and one block per unit in memory (ours: queues to storage too,
           memory bounded; DIY with its queues kept in memory: its own out-of-core mode, queues
           over 4 KiB to files, aborts, hangs or gives a wrong checksum on these runs; checked
           once per case, a hung run killed, its files removed)

Spill files go to DASH_OOC_DIR (default /var/tmp) through the page cache for both (DIY's file
storage writes that way). Every run's checksum must equal the other program's; a difference
stops the script. Each row: median times, ratio ours / DIY, peak resident memory per unit
(largest over units) for both.

--workload hot-potato (--reps default 5): DIY's iexchange test as a benchmark. bench/hot_potato
(built in <build>/bench/plain/ by the hot_potato target) against bench/diy/hot_potato_diy.cc
(compiled into <build>/bench/diy/): a chain of blocks, every block starts its particles, each
iexchange callback passes on what arrived until its hops (1..max, hashed from the particle's
id; directions hashed too, so both programs do the same hops) are spent. Cases:

  units      2 and 4 (oversubscribed on 2 cores), 1 and 4 blocks per unit
  particles  100 and 1000 per block, at most 20 hops each

Each run does --inner-reps iexchange calls (the first, a warm-up, is left out; each timed alone,
the slowest unit's time) and counts as the median of the others. Every repetition's checksum
(particle ids against the blocks they ended in) must be the same in both programs, or the
script stops. Each row: median times, ratio ours / DIY, callback calls of both and our messages
between units (medians). The JSON and Markdown keep one section per MPI: a run with
DASH_MPI=mpich replaces the MPICH section and leaves OpenMPI's.
"""
import argparse
import datetime
import glob
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")
LAUNCH = os.path.join(ROOT, "scripts", "launch.sh")
PORT = os.path.join(ROOT, "bench", "diy", "ooc_reduce_diy.cc")
ITEMS = {"1MiB": 16384, "4MiB": 65536}
HOT_PORT = os.path.join(ROOT, "bench", "diy", "hot_potato_diy.cc")
HOT_LINE = re.compile(r"^hot_potato units=(\d+) blocks=(\d+) particles=(\d+) hops=(\d+) "
                      r"seconds=([0-9.]+) checksum=([0-9a-f]+)$", re.M)
HOT_CALLS = re.compile(r"^hot_potato_calls calls=(\d+)(?: messages=(\d+) bytes=(\d+))?$", re.M)


def log(text):
    print(f"bench_diy: {text}", flush=True)


def compile_port(diy, build, mpi, port=PORT, out_name=os.path.join("diy", "ooc_reduce_diy")):
    """Compiles a port (bench/diy/*.cc) against DIY's headers into <build>/bench/<out_name>
    (bench/diy/: scripts/bench.sh runs every executable directly in <build>/bench/)."""
    cxx = {"openmpi": "mpicxx.openmpi", "mpich": "mpicxx.mpich"}[mpi]
    if shutil.which(cxx) is None:
        sys.exit(f"bench_diy: {cxx} not found (scripts/setup.sh installs both MPIs)")
    include = os.path.join(diy, "include")
    if not os.path.isfile(os.path.join(include, "diy", "master.hpp")):
        sys.exit(f"bench_diy: {diy} is not a DIY source tree (no include/diy/master.hpp)")
    out = os.path.join(build, "bench", out_name)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    # <workloads/...>: the work the port shares with its DASH program (workloads/CMakeLists.txt).
    workloads = os.path.join(ROOT, "workloads", "include")
    cmd = [cxx, "-O2", "-std=c++17", "-pthread", "-I", include, "-I", workloads, port, "-o", out]
    log(" ".join(cmd))
    subprocess.run(cmd, check=True)
    return out


def remove_port_files(env):
    """The files of the port's DIY file storage that a killed or aborted run left behind."""
    for left in glob.glob(os.path.join(env["DASH_OOC_DIR"], "ooc_reduce_diy.*")):
        os.remove(left)


def launch(program, units, args, env, timeout):
    """Runs program on units; returns (process, output), or (None, None) if it was still
    going after timeout seconds and was killed (its whole process group)."""
    cmd = [LAUNCH, "-n", str(units), program] + args
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, start_new_session=True)
    try:
        text, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return None, None
    return p, text


def run(program, units, args, env, timeout=None):
    """One run; with a timeout, a run still going then is killed (its whole process group)."""
    p, text = launch(program, units, args, env, timeout)
    if p is None:
        return {"ok": False, "hung": True, "rc": None, "tail": []}
    last = re.search(r"time_s=([0-9.]+).*checksum=([0-9a-f]+)", text)
    peaks = [float(k) / 1024 for k in re.findall(r"peak resident memory (\d+) KiB", text)]
    peaks += [float(m) for m in re.findall(r"peak resident memory ([0-9.]+) MiB", text)]
    if p.returncode != 0 or last is None:
        return {"ok": False, "rc": p.returncode, "tail": text.strip().splitlines()[-3:]}
    return {"ok": True, "time_s": float(last.group(1)), "checksum": last.group(2),
            "peak_mib": max(peaks) if peaks else None}


def main():
    """Parses the options and runs the workload asked for."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("diy", help="DIY source tree")
    ap.add_argument("--build", help="build directory (default build/$DASH_MPI)")
    ap.add_argument("--workload", choices=("ooc-reduce", "hot-potato"), default="ooc-reduce")
    ap.add_argument("--reps", type=int, help="interleaved runs per case (default 3; hot-potato 5)")
    ap.add_argument("--units", default="2,4")
    ap.add_argument("--inner-reps", type=int, default=20,
                    help="hot-potato: iexchange calls per run, the first a warm-up")
    ap.add_argument("--quick", action="store_true",
                    help="1 MiB blocks (hot-potato: 1 block per unit, 100 particles), 2 units, "
                    "1 repetition")
    a = ap.parse_args()
    if a.workload == "hot-potato":
        return hot_potato(a)
    if a.reps is None:
        a.reps = 3
    mpi = os.environ.get("DASH_MPI", "openmpi")
    build = a.build or os.path.join(ROOT, "build", mpi)
    ours = os.path.join(build, "examples", "ooc-reduce")
    if not os.access(ours, os.X_OK):
        sys.exit(f"bench_diy: {ours} not built (scripts/build.sh)")
    diy = compile_port(os.path.abspath(a.diy), build, mpi)
    env = dict(os.environ)
    env.setdefault("DASH_OOC_DIR", "/var/tmp")
    env.pop("DASH_OOC_DIRECT", None)  # through the page cache, as DIY's file storage
    units = [2] if a.quick else [int(u) for u in a.units.split(",")]
    sizes = ["1MiB"] if a.quick else list(ITEMS)
    reps = 1 if a.quick else a.reps
    cases = [(op, u, s, mem) for op in ("alltoall", "merge", "swap") for u in units
             for s in sizes for mem in (False, True)]
    runs = {c: {"ours": [], "diy": []} for c in cases}
    diy_ooc = {}
    for rep in range(reps):
        for c in cases:
            op, u, s, mem = c
            args = ["--op", op, "--items", str(ITEMS[s]), "--verbose"]
            mem_args = ["--mem-blocks", "1"] if mem else []
            for who, program, extra in (("ours", ours, []), ("diy", diy, ["--queues-in-memory"])):
                r = run(program, u, args + mem_args + (extra if mem else []), env)
                if not r["ok"]:
                    sys.exit(f"bench_diy: {who} failed on {c}: {r}")
                runs[c][who].append(r)
            if runs[c]["ours"][-1]["checksum"] != runs[c]["diy"][-1]["checksum"]:
                sys.exit(f"bench_diy: checksums differ on {c}")
            if mem and rep == 0:  # DIY's own out-of-core mode, once
                limit = max(30.0, 20 * runs[c]["diy"][-1]["time_s"])
                r = run(diy, u, args + mem_args, env, timeout=limit)
                remove_port_files(env)
                diy_ooc[c] = (f"hangs (killed after {limit:.0f} s)" if r.get("hung") else
                              "aborts" if not r["ok"] else
                              "right checksum" if r["checksum"] == runs[c]["ours"][-1]["checksum"]
                              else "wrong checksum")
            log(f"rep {rep} {op} {u} units {s} {'1 block in memory' if mem else 'in memory'}: "
                f"ours {runs[c]['ours'][-1]['time_s']:.3f} s, DIY {runs[c]['diy'][-1]['time_s']:.3f} s")
    rows = []
    for c in cases:
        op, u, s, mem = c
        med = {w: statistics.median(r["time_s"] for r in runs[c][w]) for w in ("ours", "diy")}
        peak = {w: max(r["peak_mib"] or 0 for r in runs[c][w]) for w in ("ours", "diy")}
        rows.append({"op": op, "units": u, "block": s, "one_block_in_memory": mem,
                     "ours_s": med["ours"], "diy_s": med["diy"], "ratio": med["ours"] / med["diy"],
                     "ours_peak_mib": peak["ours"], "diy_peak_mib": peak["diy"],
                     "diy_own_out_of_core": diy_ooc.get(c, ""),
                     "checksum": runs[c]["ours"][0]["checksum"]})
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    meta = {"date": stamp, "mpi": mpi, "reps": reps, "diy": os.path.abspath(a.diy)}
    os.makedirs(RESULTS, exist_ok=True)
    base = "diy" if mpi == "openmpi" else f"diy.{mpi}"
    with open(os.path.join(RESULTS, base + ".json"), "w") as f:
        json.dump({"meta": meta, "rows": rows,
                   "runs": [{"case": list(c), **runs[c]} for c in cases]}, f, indent=1)
    lines = [
        "# ooc-reduce beside DIY",
        "",
        f"Written by `scripts/bench_diy.py` on {stamp} ({mpi}, medians of {reps}; 2 cores, so 4",
        "units are oversubscribed). Same work in both: 8 blocks per unit of 64-byte items, k = 2;",
        "equal checksums in every run. Out of core: one block per unit in memory, spill files in",
        "/var/tmp through the page cache; ours keeps its queues within that memory (they go to",
        "storage), DIY runs with its queues in memory (its own out-of-core mode aborts, hangs or",
        "gives a wrong checksum here: last column). Peak: resident memory of the largest unit, MiB.",
        "",
        "| op | units | block | memory | ours s | DIY s | ours / DIY | ours peak | DIY peak "
        "| DIY's own out of core |",
        "|----|------:|-------|--------|-------:|------:|-----------:|----------:|---------:"
        "|-----------------------|",
    ]
    for r in rows:
        lines.append(
            f"| {r['op']} | {r['units']} | {r['block']} | "
            f"{'1 block' if r['one_block_in_memory'] else 'all'} | {r['ours_s']:.3f} | "
            f"{r['diy_s']:.3f} | {r['ratio']:.2f} | {r['ours_peak_mib']:.1f} | "
            f"{r['diy_peak_mib']:.1f} | {r['diy_own_out_of_core']} |")
    with open(os.path.join(RESULTS, base + ".md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    log(f"wrote bench/results/{base}.md and {base}.json")


def run_hot_potato(program, units, args, env, timeout):
    """One run of hot_potato or its port: every repetition's time, checksum and counts."""
    p, text = launch(program, units, args, env, timeout)
    if p is None:
        return {"ok": False, "hung": True, "rc": None, "tail": []}
    lines = HOT_LINE.findall(text)
    calls = HOT_CALLS.findall(text)
    if p.returncode != 0 or not lines or len(calls) != len(lines):
        return {"ok": False, "rc": p.returncode, "tail": text.strip().splitlines()[-3:]}
    checksums = sorted({line[5] for line in lines})
    timed = lines[1:] if len(lines) > 1 else lines  # the first call is a warm-up
    timed_calls = calls[1:] if len(calls) > 1 else calls
    return {"ok": True, "times_s": [float(line[4]) for line in timed],
            "first_s": float(lines[0][4]),
            "time_s": statistics.median(float(line[4]) for line in timed),
            "checksums": checksums, "hops": int(lines[0][3]),
            "calls": statistics.median(int(c[0]) for c in timed_calls),
            "messages": (statistics.median(int(c[1]) for c in timed_calls)
                         if timed_calls[0][1] else None)}


def hot_potato_markdown(sections):
    """The Markdown of bench/results/diy_hot_potato.md: one section per MPI in `sections`."""
    lines = [
        "# hot potato (DIY's iexchange test) beside DIY",
        "",
        "Written by `scripts/bench_diy.py --workload hot-potato`: `bench/hot_potato`",
        "(`dash::bp::Master::iexchange`) against `bench/diy/hot_potato_diy.cc`",
        "(`diy::Master::iexchange`), the same work: a chain of blocks, every block starts its",
        "particles with 1..max hops, every callback takes in what arrived and passes each",
        "particle with hops left to a neighbour (hop counts and directions hashed from the",
        "particle, so both do the same hops; 8-byte particles; one callback thread). Time: one",
        "iexchange, the slowest unit's; per run the median of its repetitions after a warm-up",
        "one; in the table the median over the interleaved runs. 2 cores, so 4 units are",
        "oversubscribed. Calls: callback calls (all units, medians); messages: ours between",
        "units (`Master::last_iexchange`; DIY does not count them). Equal checksums (particle",
        "ids against the blocks they ended in) in every repetition of both.",
    ]
    for mpi in ("openmpi", "mpich"):
        if mpi not in sections:
            continue
        sec = sections[mpi]
        meta = sec["meta"]
        lines += [
            "",
            f"## {mpi}",
            "",
            f"{meta['date']}, ours from `{meta.get('build', '?')}`; {meta['reps']} interleaved runs of "
            f"{meta['inner_reps']} repetitions each (the first left out).",
            "",
            "| units | blocks/unit | particles/block | max hops | hops | ours s | DIY s | "
            "ours / DIY | ours calls | DIY calls | ours messages |",
            "|------:|------------:|----------------:|---------:|-----:|-------:|------:|"
            "-----------:|-----------:|----------:|--------------:|",
        ]
        for r in sec["rows"]:
            lines.append(
                f"| {r['units']} | {r['blocks_per_unit']} | {r['particles']} | {r['max_hops']} "
                f"| {r['hops']} | {r['ours_s']:.6f} | {r['diy_s']:.6f} | {r['ratio']:.2f} | "
                f"{r['ours_calls']:.0f} | {r['diy_calls']:.0f} | {r['ours_messages']:.0f} |")
    return "\n".join(lines) + "\n"


def hot_potato(a):
    """--workload hot-potato: bench/hot_potato beside its DIY port, interleaved, checksums
    checked; writes this MPI's section of bench/results/diy_hot_potato.{json,md}."""
    mpi = os.environ.get("DASH_MPI", "openmpi")
    build = os.path.abspath(a.build or os.path.join(ROOT, "build", mpi))
    ours = os.path.join(build, "bench", "plain", "hot_potato")
    if not os.access(ours, os.X_OK):
        sys.exit(f"bench_diy: {ours} not built (cmake --build {build} --target hot_potato)")
    diy = compile_port(os.path.abspath(a.diy), build, mpi, HOT_PORT,
                       os.path.join("diy", "hot_potato_diy"))
    env = dict(os.environ)
    units = [2] if a.quick else [int(u) for u in a.units.split(",")]
    reps = 1 if a.quick else (a.reps if a.reps is not None else 5)
    inner = max(2, a.inner_reps)
    cases = [(u, bpu, parts, 20) for u in units for bpu in ([1] if a.quick else [1, 4])
             for parts in ([100] if a.quick else [100, 1000])]
    runs = {c: {"ours": [], "diy": []} for c in cases}
    for rep in range(reps):
        for c in cases:
            u, bpu, parts, hops = c
            args = ["--blocks-per-unit", str(bpu), "--particles", str(parts),
                    "--max-hops", str(hops), "--reps", str(inner), "--verbose"]
            for who, program in (("ours", ours), ("diy", diy)):
                r = run_hot_potato(program, u, args, env, timeout=300)
                if not r["ok"]:
                    sys.exit(f"bench_diy: {who} failed on {c}: {r}")
                if len(r["checksums"]) != 1:
                    sys.exit(f"bench_diy: {who} gave different checksums in one run on {c}: "
                             f"{r['checksums']}")
                runs[c][who].append(r)
            if runs[c]["ours"][-1]["checksums"] != runs[c]["diy"][-1]["checksums"] or \
                    runs[c]["ours"][-1]["checksums"] != runs[c]["ours"][0]["checksums"]:
                sys.exit(f"bench_diy: checksums differ on {c}: ours "
                         f"{runs[c]['ours'][-1]['checksums']}, "
                         f"DIY {runs[c]['diy'][-1]['checksums']}")
            log(f"rep {rep} {u} units, {bpu} blocks per unit, {parts} particles, {hops} hops: "
                f"ours {runs[c]['ours'][-1]['time_s'] * 1e3:.3f} ms, "
                f"DIY {runs[c]['diy'][-1]['time_s'] * 1e3:.3f} ms")
    rows = []
    for c in cases:
        u, bpu, parts, hops = c
        med = {w: statistics.median(r["time_s"] for r in runs[c][w]) for w in ("ours", "diy")}
        calls = {w: statistics.median(r["calls"] for r in runs[c][w]) for w in ("ours", "diy")}
        rows.append({"units": u, "blocks_per_unit": bpu, "particles": parts, "max_hops": hops,
                     "hops": runs[c]["ours"][0]["hops"], "ours_s": med["ours"],
                     "diy_s": med["diy"], "ratio": med["ours"] / med["diy"],
                     "ours_calls": calls["ours"], "diy_calls": calls["diy"],
                     "ours_messages": statistics.median(r["messages"] for r in runs[c]["ours"]),
                     "checksum": runs[c]["ours"][0]["checksums"][0]})
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    shown = os.path.relpath(build, ROOT) if build.startswith(ROOT + os.sep) else build
    meta = {"date": stamp, "mpi": mpi, "reps": reps, "inner_reps": inner, "build": shown,
            "diy": os.path.abspath(a.diy)}
    os.makedirs(RESULTS, exist_ok=True)
    path = os.path.join(RESULTS, "diy_hot_potato.json")
    sections = {}
    if os.path.isfile(path):
        with open(path) as f:
            sections = json.load(f)
    sections[mpi] = {"meta": meta, "rows": rows,
                     "runs": [{"case": list(c), **runs[c]} for c in cases]}
    with open(path, "w") as f:
        json.dump(sections, f, indent=1)
    with open(os.path.join(RESULTS, "diy_hot_potato.md"), "w") as f:
        f.write(hot_potato_markdown(sections))
    log(f"wrote the {mpi} section of bench/results/diy_hot_potato.md and diy_hot_potato.json")


if __name__ == "__main__":
    main()
