#!/usr/bin/env python3
"""Measurements across emulated hosts (scripts/cluster.sh), written to bench/results/multinode/.

    scripts/bench_multinode.py [--build DIR] [--rates 1gbit,4gbit] [--reps 3]
                               [--parts stencil,copy,io,checksums]

Needs root (it brings up a namespace cluster of 4 nodes once per link rate and takes it down at
the end; a cluster that is already up is refused rather than taken over). The MPI is the one the
build links (DASH_MPI picks the default build: build/<mpi>). Every part runs its configurations
interleaved: repetition r of every configuration before repetition r + 1, medians over the
repetitions.

  stencil    examples/stencil3d on 2 nodes x 4 units and 4 nodes x 4 units, ranks placed
             --map-by slot and --map-by node (round robin), DART_UNIT_MAPPING=hierarchical and
             hilbert. Each run times the rank order ("none") and the mapping in force on the same
             units, interleaved, and prints the model's prediction for both; the model is given
             the cluster (one switch, the link rate measured by scripts/cluster.sh's tbf) through
             a DART_TOPOLOGY_FILE.
  copy       bench/copy's BM_copy_remote on 2 nodes x 1 unit: dash::copy from the other node
             against MPI_Get + MPI_Win_flush on the same transport (its ratio_vs_mpi_get).
  io         examples/io-bench on 2 and 4 nodes x 2 units: dash::io (burst buffer into each
             node's own node-local directory, one aggregator per node) against MPI-IO, the
             write-then-read workflow and a plain write, into a directory on the disk.
  checksums  ooc-jacobi out of core (2048 x 2048, 1/8 in memory) and particles (the default run)
             on 4 units on one host, on 2 nodes and on 4 nodes: the checksums must be equal.

Writes bench/results/multinode/<mpi>.json (every run and the medians) and rewrites
bench/results/multinode.md from every <mpi>.json present.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results", "multinode")
CLUSTER = os.path.join(ROOT, "scripts", "cluster.sh")
LAUNCH = os.path.join(ROOT, "scripts", "launch.sh")
NODES = 4
# Goodput of one link under scripts/cluster.sh's token bucket, measured with MPI_Send of 32 x
# 4 MiB between two nodes (docs/running.md, "Running on several hosts"), in GB/s: the model's
# inter-node bandwidth.
LINK_GBPS = {"1gbit": 0.958 / 8, "4gbit": 3.83 / 8}
# The model's latency between nodes (TCP over veth through the bridge) and inside one node.
LINK_LATENCY_US = 30.0
NODE_COST = "cost node 0.5 10"
STENCIL_SIZES = "--min-bytes 65536 --max-bytes 2097152"


def log(text):
    print(f"bench_multinode: {text}", flush=True)


def run(cmd, env=None, timeout=900, check=True):
    """Runs cmd (a list), returns (seconds, stdout, stderr)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    start = time.monotonic()
    p = subprocess.run(cmd, env=full_env, capture_output=True, text=True, timeout=timeout)
    took = time.monotonic() - start
    if check and p.returncode != 0:
        sys.stderr.write(p.stdout[-4000:] + p.stderr[-4000:])
        raise RuntimeError(f"exit code {p.returncode}: {' '.join(cmd)}")
    return took, p.stdout, p.stderr


def launch(build, nodes, units, program, args, env=None, map_by="slot", timeout=900):
    cmd = [LAUNCH, "-n", str(units)]
    if nodes > 0:
        cmd += ["--nodes", str(nodes), "--map-by", map_by]
    cmd += [os.path.join(build, program)] + args
    return run(cmd, env=env, timeout=timeout)


def cluster(*args):
    p = subprocess.run([CLUSTER, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip() or p.stdout.strip())
    return p.stdout.strip()


def topology_file(directory, rate):
    path = os.path.join(directory, f"cluster-{rate}.txt")
    with open(path, "w") as f:
        f.write("# The namespace cluster: every node under one switch, links limited to "
                f"{rate}.\nlevels switch\n")
        f.write("node 0\n" * NODES)
        f.write(f"{NODE_COST}\ncost switch {LINK_LATENCY_US} {LINK_GBPS[rate]:.4f}\n")
    return path


# ---- parts: each yields (configuration key, runner) pairs; a runner returns a dict ----------


def stencil_configs(build, rate, topo):
    for nodes in (2, 4):
        units = 4 * nodes
        for map_by in ("slot", "node"):
            for mapping in ("hierarchical", "hilbert"):
                key = f"stencil {rate} nodes={nodes} units={units} map-by={map_by} {mapping}"

                def runner(nodes=nodes, units=units, map_by=map_by, mapping=mapping):
                    env = {"DART_UNIT_MAPPING": mapping, "DART_TOPOLOGY_FILE": topo}
                    _, out, _ = launch(build, nodes, units, "examples/stencil3d",
                                       STENCIL_SIZES.split(), env=env, map_by=map_by)
                    rows = {}
                    for line in out.splitlines():
                        f = line.split()
                        if len(f) == 7 and f[0].isdigit():
                            rows[f[0]] = {"none_us": float(f[1]), "mapped_us": float(f[2]),
                                          "factor": float(f[3]), "model_factor": float(f[6])}
                    crossings = re.findall(r"^\s*node crossings\s+(\d+)\s+(\d+)$", out, re.M)
                    if not rows or not crossings:
                        raise RuntimeError("stencil3d printed no table:\n" + out)
                    return {"sizes": rows, "crossings_none": int(crossings[0][0]),
                            "crossings_mapped": int(crossings[0][1])}

                yield key, runner


def copy_configs(build, rate, _topo):
    key = f"copy {rate} nodes=2 units=2"

    def runner():
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
            out_json = tmp.name
        try:
            # Three repetitions, their median: the first transfers between two hosts run before
            # TCP has warmed up (measured at 4 Gbit/s, 32 MiB: the first repetition's dash::copy
            # and MPI_Get 110 and 103 ms, the later ones 70 ms, the link's rate, alike).
            launch(build, 2, 2, "bench/copy",
                   ["--benchmark_filter=BM_copy_remote/", f"--benchmark_out={out_json}",
                    "--benchmark_out_format=json", "--benchmark_repetitions=3",
                    "--benchmark_report_aggregates_only=true"], timeout=3600)
            with open(out_json) as f:
                data = json.load(f)
        finally:
            os.unlink(out_json)
        sizes = {}
        for b in data.get("benchmarks", []):
            m = re.match(r"BM_copy_remote/bytes:(\d+)/manual_time_median$", b["name"])
            if m and "ratio_vs_mpi_get" in b:
                sizes[m.group(1)] = {"ratio_vs_mpi_get": b["ratio_vs_mpi_get"],
                                     "ns_per_copy": b.get("ns_per_copy"),
                                     "mpi_get_ns_per_copy": b.get("mpi_get_ns_per_copy"),
                                     "mpi_get_dart_window_ns_per_copy":
                                         b.get("mpi_get_dart_window_ns_per_copy"),
                                     "label": b.get("label", "")}
        if not sizes:
            raise RuntimeError("bench/copy reported no BM_copy_remote")
        return {"sizes": sizes}

    yield key, runner


def io_configs(build, rate, _topo, io_dir):
    for nodes in (2, 4):
        units = 2 * nodes
        for mode in ("workflow", "write"):
            for via in ("dash", "mpiio"):
                key = f"io {rate} nodes={nodes} units={units} {mode} via={via}"

                def runner(nodes=nodes, units=units, mode=mode, via=via):
                    env = {"DASH_IO_NODE_DIR": "/run/dash-cluster/node-local"}
                    args = ["--layout", "random", "--bytes-per-unit", "32M", "--mode", mode,
                            "--via", via, "--dir", io_dir]
                    if via == "dash" and mode == "write":
                        args += ["--tier", "disk"]  # aggregated, one aggregator per node
                    _, out, _ = launch(build, nodes, units, "examples/io-bench", args, env=env)
                    m = re.search(r"bandwidth_GBps=([0-9.]+) tier=(\S+) aggregators=(\d+) "
                                  r"checksum=([0-9a-f]+)", out)
                    if not m:
                        raise RuntimeError("io-bench printed no result line:\n" + out)
                    return {"GBps": float(m.group(1)), "tier": m.group(2),
                            "aggregators": int(m.group(3)), "checksum": m.group(4)}

                yield key, runner


CHECKSUM_RUNS = {
    "ooc-jacobi": ("examples/ooc-jacobi", ["--grid", "2048,2048", "--iterations", "5",
                                           "--strategy", "producer", "--mem-fraction", "1/8"],
                   r"checksum=([0-9a-f]+)"),
    "particles": ("examples/particles", [], r"particles=\d+ checksum=([0-9a-f]+)"),
}


def checksum_configs(build, rate, _topo):
    for name, (program, args, pattern) in CHECKSUM_RUNS.items():
        for nodes in (0, 2, 4):
            key = f"checksums {rate} {name} nodes={nodes or 1} units=4"

            def runner(program=program, args=args, pattern=pattern, nodes=nodes):
                took, out, _ = launch(build, nodes, 4, program, args)
                m = re.findall(pattern, out)
                if not m:
                    raise RuntimeError(f"{program} printed no checksum:\n" + out)
                return {"checksum": m[-1], "seconds": took}

            yield key, runner


# What a reader must know about one MPI's figures.
CAVEATS = {
    "mpich": "**Not link-limited.** MPICH's network module (UCX) takes every process of this "
             "machine for one host whatever its network namespace, and moves the bytes between "
             "emulated nodes through shared memory (cross-memory attach), not over the links: "
             "32 MiB from another node take 3 ms at any rate (10 GB/s). The remapping gain below "
             "is the gain of keeping neighbours inside MPICH's own shared-memory module, not of "
             "sparing the links; the time of a run does not follow the rate. Forcing UCX to TCP "
             "(`UCX_TLS=tcp,self`) makes a single program cross the links (bench/copy: 0.25 GB/s "
             "on an unlimited link, beside a test run), but the suite's first runs across hosts "
             "then hang in `MPI_Finalize`: a plain MPI program doing only `MPI_Barrier` and "
             "`MPI_Finalize` hangs there on 3 nodes as soon as UCX sees the nodes as hosts "
             "(MPICH 4.0.2, UCX 1.13.1; docs/running.md, \"Running on several hosts\"), so the "
             "launcher leaves UCX's choice. OpenMPI's "
             "figures are the ones that measure the links.",
}


# ---- medians and the report ---------------------------------------------------------------


def good(runs):
    return [r for r in runs if "error" not in r]


def median_of(runs, path):
    runs = good(runs)
    values = []
    for r in runs:
        v = r
        for p in path:
            v = v.get(p) if isinstance(v, dict) else None
        if isinstance(v, (int, float)):
            values.append(v)
    return statistics.median(values) if values else None


def fmt(v, digits=2):
    return "–" if v is None else f"{v:.{digits}f}"


def report(all_results):
    lines = ["# Across hosts: the namespace cluster", "",
             "Written by `scripts/bench_multinode.py` (see its opening comment for what each part "
             "runs). Emulated hosts are network namespaces on one machine of 2 cores "
             "(`scripts/cluster.sh`): the links are real TCP through a bridge, limited by a token "
             "bucket; the CPUs are shared by every node, so CPU-bound figures are lower bounds. "
             "Medians of interleaved repetitions.", ""]
    for mpi, res in sorted(all_results.items()):
        lines += [f"## {mpi}", "", f"{res['date']}, {res['reps']} repetitions, "
                  f"link rates {', '.join(res['rates'])}.", ""]
        if mpi in CAVEATS:
            lines += [CAVEATS[mpi], ""]
        by = res["configs"]
        st = {k: v for k, v in by.items() if k.startswith("stencil ")}
        if st:
            lines += ["### Unit remapping (stencil3d)", "",
                      "Speed-up = time(rank order) / time(mapping), both timed in the same run; "
                      "model = the cost model's predicted speed-up for the same layouts "
                      "(cluster topology file). Crossings: stencil links between nodes, rank "
                      "order → mapping.", "",
                      "| rate | nodes × units | placement | mapping | crossings | bytes | "
                      "none µs | mapped µs | speed-up | model | measured / model |",
                      "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|"]
            for key, runs in st.items():
                _, rate, nodes, units, map_by, mapping = key.split()
                runs = good(runs)
                if not runs:
                    lines.append(f"| {rate} | {nodes} {units} | {map_by} | {mapping} | failed |")
                    continue
                sizes = runs[0]["sizes"].keys()
                for size in sizes:
                    speed = median_of(runs, ["sizes", size, "factor"])
                    model = median_of(runs, ["sizes", size, "model_factor"])
                    lines.append(
                        f"| {rate} | {nodes[6:]} × {int(units[6:]) // int(nodes[6:])} | "
                        f"{map_by[7:]} | {mapping} | {runs[0]['crossings_none']} → "
                        f"{runs[0]['crossings_mapped']} | {size} | "
                        f"{fmt(median_of(runs, ['sizes', size, 'none_us']), 0)} | "
                        f"{fmt(median_of(runs, ['sizes', size, 'mapped_us']), 0)} | "
                        f"{fmt(speed)} | {fmt(model)} | "
                        f"{fmt(speed / model if speed and model else None)} |")
            lines.append("")
        cp = {k: v for k, v in by.items() if k.startswith("copy ")}
        if cp:
            lines += ["### dash::copy from another node against MPI_Get", "",
                      "time(MPI_Get + flush) / time(dash::copy) of the same bytes from the "
                      "other node's memory (above 1: dash::copy is faster), the inverse of "
                      "bench/copy's ratio_vs_mpi_get. MPI_Get on DART's window: the same "
                      "MPI_Get on the window DART made for the array (`dart_gptr_mpi_window`), "
                      "so MPI_Get / MPI_Get on DART's window is what the kind of window costs "
                      "and MPI_Get on DART's window / dash what dash::copy adds.", "",
                      "| rate | bytes | dash µs | MPI_Get µs | MPI_Get on DART's window µs "
                      "| MPI_Get / dash | MPI_Get on DART's window / dash |",
                      "|---|---:|---:|---:|---:|---:|---:|"]
            for key, runs in cp.items():
                rate = key.split()[1]
                runs = good(runs)
                if not runs:
                    lines.append(f"| {rate} | failed | | | | | |")
                    continue
                for size in runs[0]["sizes"]:
                    ratio = median_of(runs, ["sizes", size, "ratio_vs_mpi_get"])
                    dash_ns = median_of(runs, ["sizes", size, "ns_per_copy"])
                    get_ns = median_of(runs, ["sizes", size, "mpi_get_ns_per_copy"])
                    dw_ns = median_of(runs, ["sizes", size, "mpi_get_dart_window_ns_per_copy"])
                    lines.append(f"| {rate} | {size} | {fmt(dash_ns and dash_ns / 1e3, 1)} | "
                                 f"{fmt(get_ns and get_ns / 1e3, 1)} | "
                                 f"{fmt(dw_ns and dw_ns / 1e3, 1)} | "
                                 f"{fmt(1 / ratio if ratio else None)} | "
                                 f"{fmt(dw_ns / dash_ns if dw_ns and dash_ns else None)} |")
            lines.append("")
        io = {k: v for k, v in by.items() if k.startswith("io ")}
        if io:
            lines += ["### Collective I/O with node-local storage per node", "",
                      "io-bench --layout random --bytes-per-unit 32M; dash: node-local "
                      "`DASH_IO_NODE_DIR` on every node (the burst buffer in the workflow, the "
                      "disk tier for the write), one aggregator per node; mpiio: "
                      "MPI_File_write_at_all / read_at_all.", "",
                      "| rate | nodes × units | mode | dash GB/s | MPI-IO GB/s | dash / MPI-IO |",
                      "|---|---|---|---:|---:|---:|"]
            seen = set()
            for key in io:
                _, rate, nodes, units, mode, _via = key.split()
                base = f"io {rate} {nodes} {units} {mode}"
                if base in seen:
                    continue
                seen.add(base)
                d = median_of(io.get(base + " via=dash", []), ["GBps"])
                m = median_of(io.get(base + " via=mpiio", []), ["GBps"])
                lines.append(f"| {rate} | {nodes[6:]} × {int(units[6:]) // int(nodes[6:])} | "
                             f"{mode} | {fmt(d, 3)} | {fmt(m, 3)} | "
                             f"{fmt(d / m if d and m else None)} |")
            lines.append("")
        cs = {k: v for k, v in by.items() if k.startswith("checksums ")}
        if cs:
            lines += ["### Same results across hosts", "",
                      "| rate | program | nodes | checksums (every repetition) | seconds |",
                      "|---|---|---:|---|---:|"]
            for key, runs in cs.items():
                _, rate, name, nodes, _units = key.split()
                sums = sorted({r.get("checksum", "failed") for r in runs})
                lines.append(f"| {rate} | {name} | {nodes[6:]} | {' '.join(sums)} | "
                             f"{fmt(median_of(runs, ['seconds']), 1)} |")
            lines.append("")
    with open(os.path.join(os.path.dirname(RESULTS), "multinode.md"), "w") as f:
        f.write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(
        ROOT, "build", os.environ.get("DASH_MPI", "openmpi")))
    ap.add_argument("--rates", default="1gbit,4gbit")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--parts", default="stencil,copy,io,checksums")
    ap.add_argument("--report-only", action="store_true", help="only rewrite multinode.md")
    a = ap.parse_args()
    os.makedirs(RESULTS, exist_ok=True)
    if a.report_only:
        report(load_all())
        return 0
    if os.geteuid() != 0:
        sys.exit("bench_multinode: needs root (network namespaces)")
    rates = [r for r in a.rates.split(",") if r]
    for r in rates:
        if r not in LINK_GBPS:
            sys.exit(f"bench_multinode: --rates: '{r}' is not one of {', '.join(LINK_GBPS)}")
    parts = [p for p in a.parts.split(",") if p]
    for p in parts:
        if p not in ("stencil", "copy", "io", "checksums"):
            sys.exit(f"bench_multinode: --parts: unknown part '{p}'")
    mpi = "mpich" if "libmpich" in run(["ldd", os.path.join(a.build, "examples/hello")])[1] \
        else "openmpi"
    if subprocess.run([CLUSTER, "status"], capture_output=True).returncode == 0:
        sys.exit("bench_multinode: a cluster is up already; take it down first "
                 "(scripts/cluster.sh down)")
    work = tempfile.mkdtemp(prefix="dash-bench-multinode-", dir="/var/tmp")
    results = {"mpi": mpi, "date": datetime.datetime.now(datetime.timezone.utc)
               .isoformat(timespec="seconds"), "reps": a.reps, "rates": rates, "configs": {}}
    failures = []
    try:
        for rate in rates:
            log(cluster("up", str(NODES), "--link-rate", rate))
            topo = topology_file(work, rate)
            configs = []
            if "stencil" in parts:
                configs += list(stencil_configs(a.build, rate, topo))
            if "copy" in parts:
                configs += list(copy_configs(a.build, rate, topo))
            if "io" in parts:
                configs += list(io_configs(a.build, rate, topo, work))
            if "checksums" in parts:
                configs += list(checksum_configs(a.build, rate, topo))
            for rep in range(a.reps):
                for key, runner in configs:
                    log(f"{mpi} rep {rep + 1}/{a.reps}: {key}")
                    try:
                        result = runner()
                    except (RuntimeError, subprocess.TimeoutExpired) as e:
                        log(f"FAILED: {key}: {str(e)[:400]}")
                        failures.append(key)
                        result = {"error": str(e)[:2000]}
                    results["configs"].setdefault(key, []).append(result)
            cluster("down")
    finally:
        subprocess.run([CLUSTER, "down"], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
        path = os.path.join(RESULTS, f"{mpi}.json")
        old = {}
        if os.path.exists(path):
            with open(path) as f:
                old = json.load(f)
        # Keep the parts this run did not measure.
        for key, runs in old.get("configs", {}).items():
            if key.split()[0] not in parts or key.split()[1] not in rates:
                results["configs"].setdefault(key, runs)
        with open(path, "w") as f:
            json.dump(results, f, indent=1)
        report(load_all())
    if failures:
        log(f"{len(failures)} run(s) failed: {', '.join(sorted(set(failures)))}")
        return 1
    return 0


def load_all():
    out = {}
    for name in sorted(os.listdir(RESULTS)):
        if name.endswith(".json"):
            with open(os.path.join(RESULTS, name)) as f:
                out[name[:-5]] = json.load(f)
    return out


if __name__ == "__main__":
    sys.exit(main())
