#!/usr/bin/env python3
"""Runs the CTest runs of a build directory across the namespace cluster of scripts/cluster.sh.

    scripts/multinode_tests.py BUILD_DIR [-j J] [-R REGEX] [-E REGEX] [--variants] [--list]
                               [--timeout S] [--np4-nodes 2,3]

Every plain CTest run that starts a program under mpiexec on 2, 3 or 4 units (<suite>.np2,
example.<name>.np4, ...; with --variants also the runs of the suites' variants and the
examples' other runs) is run again through scripts/launch.sh --nodes, with the run's own environment,
arguments and timeout:
    2 units -> 2 nodes x 1 unit, 3 units -> 3 nodes x 1 unit, 4 units -> 2 nodes x 2 units and
    3 nodes x 2+1+1 units (--np4-nodes 3: only the latter).
Runs that cannot mean the same thing across hosts are left out, each with its reason
(LEFT_OUT below). Prints one line per run (a failed run's last 60 lines of output after it)
and a summary; the whole output of each failed run goes to BUILD_DIR/multinode-logs/, and the
lines that say why it failed to BUILD_DIR/multinode-logs/summary.txt (scripts/test_multinode.sh
prints that file last). Exit code 1 if any run failed, 2 on a usage error (no cluster of 3 nodes
up, no build).
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
LAUNCH = os.path.join(HERE, "launch.sh")

# Runs left out, as (regex on the test name, reason).
LEFT_OUT = [
    # One host by construction: they check that units of one host share memory, emulate nodes
    # with DART_VIRTUAL_NODE_SIZE or force the window layout meant for one host.
    (r"\.vnode[0-9]*\.|\.force_pair\.|\.shm_off\.",
     "variants that emulate nodes on one host; the real hosts replace them here"),
    # Runs that start their own mpiexec, stall on purpose or expect a launcher's own output.
    (r"^dart_watchdog|watchdog_stall|\.stall\.", "stall a unit on purpose and expect one host's launcher"),
    (r"^install\b|^example\..*\.svg$", "not an MPI program run"),
]

NODES_FOR_UNITS = {2: [2], 3: [3], 4: [2, 3]}


def die(msg):
    print(f"multinode_tests.py: {msg}", file=sys.stderr)
    sys.exit(2)


def units_of(labels):
    for label in labels:
        m = re.fullmatch(r"np([0-9]+)", label)
        if m:
            return int(m.group(1))
    return None


def properties(test):
    props = {p["name"]: p["value"] for p in test.get("properties", [])}
    labels = props.get("LABELS", [])
    env = props.get("ENVIRONMENT", [])
    return {
        "labels": labels if isinstance(labels, list) else [labels],
        "environment": env if isinstance(env, list) else [env],
        "timeout": float(props.get("TIMEOUT", 300)),
        "workdir": props.get("WORKING_DIRECTORY"),
        "will_fail": props.get("WILL_FAIL", False),
        "pass_regex": props.get("PASS_REGULAR_EXPRESSION"),
        "fail_regex": props.get("FAIL_REGULAR_EXPRESSION"),
        "skip_rc": props.get("SKIP_RETURN_CODE"),
    }


def program_part(command):
    """The program and its arguments of an mpiexec command line, or None."""
    if not command or not os.path.basename(command[0]).startswith(("mpiexec", "mpirun")):
        return None
    i = 1
    while i < len(command):
        arg = command[i]
        if arg in ("-n", "-np"):
            i += 2
        elif arg.startswith("-"):
            i += 1
        else:
            return command[i:]
    return None


PLAIN = re.compile(r"^(example\.)?[^.]+\.np[0-9]+$")


def collect(build_dir, variants, np4_nodes):
    out = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build_dir, check=True,
                         capture_output=True, text=True).stdout
    runs = []
    for test in json.loads(out)["tests"]:
        props = properties(test)
        n = units_of(props["labels"])
        if n not in NODES_FOR_UNITS:
            continue
        name = test["name"]
        if "soak" in props["labels"] or not (variants or PLAIN.match(name)):
            continue
        reason = next((why for rx, why in LEFT_OUT if re.search(rx, name)), None)
        program = program_part(test.get("command", []))
        if program is None:
            reason = reason or "not a plain mpiexec run"
        for nodes in (np4_nodes if n == 4 else NODES_FOR_UNITS[n]):
            runs.append({"name": name, "units": n, "nodes": nodes, "program": program,
                         "left_out": reason, **props})
    return runs


# Lines of a failed run's output that say why it failed (test failures, errors, aborts).
WHY = re.compile(r"Failure|FAILED|[Ee]rror|[Aa]bort|WATCHDOG|timeout after|signal|Expected|"
                 r"Which is|Actual|Value of|exited|killed", re.ASCII)


def why_failed(output, limit=30):
    """The lines of output that say why a run failed (at most limit, first ones first)."""
    lines = [line for line in output.splitlines() if WHY.search(line)]
    return lines[:limit] or output.splitlines()[-limit:]


def run_one(run, timeout_override):
    env = dict(os.environ)
    for entry in run["environment"]:
        key, _, value = entry.partition("=")
        env[key] = value
    cmd = [LAUNCH, "--nodes", str(run["nodes"]), "-n", str(run["units"]), *run["program"]]
    timeout = timeout_override or run["timeout"]
    start = time.monotonic()
    # Its own session, so that a timeout ends mpiexec and everything it started (SIGTERM lets
    # mpiexec take its daemons on the other nodes down; SIGKILL after 5 s).
    proc = subprocess.Popen(cmd, env=env, cwd=run["workdir"] or None, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, errors="replace",
                            start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=timeout)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                proc.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        output, _ = proc.communicate()
        rc = None
        output = (output or "") + f"\n*** timeout after {timeout:.0f} s\n"
    seconds = time.monotonic() - start
    if rc is None:
        ok = False
    elif run["skip_rc"] is not None and rc == int(run["skip_rc"]):
        ok = True
    elif run["pass_regex"]:
        rxs = run["pass_regex"] if isinstance(run["pass_regex"], list) else [run["pass_regex"]]
        ok = any(re.search(rx, output) for rx in rxs)
    else:
        ok = (rc == 0) != bool(run["will_fail"])
    if ok and run["fail_regex"]:
        rxs = run["fail_regex"] if isinstance(run["fail_regex"], list) else [run["fail_regex"]]
        ok = not any(re.search(rx, output) for rx in rxs)
    return ok, rc, seconds, output


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("build_dir")
    ap.add_argument("-j", type=int, default=2, help="runs at a time (default 2)")
    ap.add_argument("-R", help="only runs whose name matches")
    ap.add_argument("-E", help="leave out runs whose name matches")
    ap.add_argument("--variants", action="store_true",
                    help="also the variants' runs and the examples' other runs")
    ap.add_argument("--list", action="store_true", help="list the runs and what is left out")
    ap.add_argument("--timeout", type=float, help="per run, instead of the run's CTest timeout")
    ap.add_argument("--np4-nodes", default="2,3",
                    help="node counts for the 4-unit runs: 2 (2 x 2), 3 (2+1+1) or both (default)")
    args = ap.parse_args()
    try:
        np4_nodes = sorted({int(x) for x in args.np4_nodes.split(",")})
    except ValueError:
        np4_nodes = []
    if not np4_nodes or any(x not in NODES_FOR_UNITS[4] for x in np4_nodes):
        die(f"--np4-nodes {args.np4_nodes!r}: give 2, 3 or 2,3")
    if not os.path.isfile(os.path.join(args.build_dir, "CTestTestfile.cmake")):
        die(f"no CTest build in {args.build_dir} (scripts/build.sh first)")
    runs = collect(args.build_dir, args.variants, np4_nodes)
    if args.R:
        runs = [r for r in runs if re.search(args.R, r["name"])]
    if args.E:
        runs = [r for r in runs if not re.search(args.E, r["name"])]
    chosen = [r for r in runs if not r["left_out"]]
    if args.list:
        for r in runs:
            where = f"{r['nodes']} nodes x {(r['units'] + r['nodes'] - 1) // r['nodes']}"
            print(f"{r['name']:60s} {where}" + (f"  LEFT OUT: {r['left_out']}" if r["left_out"] else ""))
        print(f"{len(chosen)} runs, {len(runs) - len(chosen)} left out")
        return 0
    try:
        nodes_up = int(open("/run/dash-cluster/nodes").read())
    except (OSError, ValueError):
        die("no cluster is up (scripts/cluster.sh up 3)")
    if any(r["nodes"] > nodes_up for r in chosen):
        die(f"these runs need 3 nodes, the cluster has {nodes_up} (scripts/cluster.sh down; up 3)")
    if not chosen:
        die("no runs selected")

    logs = os.path.join(args.build_dir, "multinode-logs")
    os.makedirs(logs, exist_ok=True)
    summary_path = os.path.join(logs, "summary.txt")
    if os.path.exists(summary_path):
        os.remove(summary_path)
    failed = []
    why = []
    start = time.monotonic()
    total = len(chosen)
    done = 0

    def report(run, result):
        nonlocal done
        ok, rc, seconds, output = result
        done += 1
        status = "Passed" if ok else ("Timeout" if rc is None else f"Failed (exit {rc})")
        print(f"{done:4d}/{total} {run['name']:60s} {run['nodes']} nodes  {status:18s} "
              f"{seconds:7.2f} s", flush=True)
        if not ok:
            label = f"{run['name']} on {run['nodes']} nodes"
            failed.append(label)
            tail = output.splitlines()[-60:]
            print("\n".join("    | " + line for line in tail), flush=True)
            log = os.path.join(logs, f"{run['name']}.{run['nodes']}nodes.log")
            with open(log, "w") as f:
                f.write(output)
            why.append(f"FAILED {label} ({status}; whole output: {log}):")
            why.extend("    | " + line for line in why_failed(output))

    with ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
        futures = [(r, pool.submit(run_one, r, args.timeout)) for r in chosen]
        for run, fut in futures:
            report(run, fut.result())
    elapsed = time.monotonic() - start
    print(f"multinode_tests.py: {total - len(failed)} of {total} runs passed across hosts "
          f"in {elapsed:.0f} s ({len(runs) - len(chosen)} left out: --list says why)")
    for name in failed:
        print(f"    FAILED {name}")
    if why:
        with open(summary_path, "w") as f:
            f.write("\n".join(why) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
