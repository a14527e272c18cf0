#!/usr/bin/env python3
"""examples/ooc-reduce beside DIY doing the same work, written to bench/results/diy.{json,md}.

    scripts/bench_diy.py DIY_SOURCE [--build DIR] [--reps 3] [--units 2,4] [--quick]

DIY_SOURCE is a DIY source tree (e.g. a snapshot of github.com/diatomic/diy); DIY is not a
dependency of this project and nothing of it enters the repository: the script compiles
bench/diy/ooc_reduce_diy.cc (ooc-reduce's work written against DIY's API: same data, same
partners, same checksum) against it with the MPI of the build (DASH_MPI, default openmpi) into
the build directory, then runs, interleaved (repetition r of every case before repetition
r + 1; medians over the repetitions):

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


def log(text):
    print(f"bench_diy: {text}", flush=True)


def compile_port(diy, build, mpi):
    cxx = {"openmpi": "mpicxx.openmpi", "mpich": "mpicxx.mpich"}[mpi]
    if shutil.which(cxx) is None:
        sys.exit(f"bench_diy: {cxx} not found (scripts/setup.sh installs both MPIs)")
    include = os.path.join(diy, "include")
    if not os.path.isfile(os.path.join(include, "diy", "master.hpp")):
        sys.exit(f"bench_diy: {diy} is not a DIY source tree (no include/diy/master.hpp)")
    out = os.path.join(build, "bench", "ooc_reduce_diy")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    cmd = [cxx, "-O2", "-std=c++17", "-pthread", "-I", include, PORT, "-o", out]
    log(" ".join(cmd))
    subprocess.run(cmd, check=True)
    return out


def remove_port_files(env):
    """The files of the port's DIY file storage that a killed or aborted run left behind."""
    for left in glob.glob(os.path.join(env["DASH_OOC_DIR"], "ooc_reduce_diy.*")):
        os.remove(left)


def run(program, units, args, env, timeout=None):
    """One run; with a timeout, a run still going then is killed (its whole process group)."""
    cmd = [LAUNCH, "-n", str(units), program] + args
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, start_new_session=True)
    try:
        text, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return {"ok": False, "hung": True, "rc": None, "tail": []}
    last = re.search(r"time_s=([0-9.]+).*checksum=([0-9a-f]+)", text)
    peaks = [float(k) / 1024 for k in re.findall(r"peak resident memory (\d+) KiB", text)]
    peaks += [float(m) for m in re.findall(r"peak resident memory ([0-9.]+) MiB", text)]
    if p.returncode != 0 or last is None:
        return {"ok": False, "rc": p.returncode, "tail": text.strip().splitlines()[-3:]}
    return {"ok": True, "time_s": float(last.group(1)), "checksum": last.group(2),
            "peak_mib": max(peaks) if peaks else None}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("diy", help="DIY source tree")
    ap.add_argument("--build", help="build directory (default build/$DASH_MPI)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--units", default="2,4")
    ap.add_argument("--quick", action="store_true", help="1 MiB blocks, 2 units, 1 repetition")
    a = ap.parse_args()
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
    with open(os.path.join(RESULTS, "diy.json"), "w") as f:
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
    with open(os.path.join(RESULTS, "diy.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    log("wrote bench/results/diy.md and diy.json")


if __name__ == "__main__":
    main()
