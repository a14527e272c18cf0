#!/usr/bin/env python3
"""Every C and C++ code block of README.md and docs/*.md is a complete program: this compiles each
against an installed dash (its dash-mpicxx for C++, the MPI C compiler with the installed headers
and libraries for C; parallel HDF5 through pkg-config dash-hdf5 where a block includes
dash/io/Hdf5.h or dash/io/HDF5.h) and runs it on 2 units, so the documentation cannot rot.

  code_blocks.py --prefix P --cc MPICC --launch "mpiexec -n 2 ..." [--min-programs N] [-j N] FILE...

A block passes when it compiles without warnings (-Wall -Wextra -Werror) and its run exits 0
without an error line on stderr. Prints one line per block and, last, "code_blocks: passed (<n>
programs)" or "code_blocks: failed" (exit 1). Fewer than --min-programs blocks found is a failure
too: the documentation lost its examples, or this script stopped finding them.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import tempfile

BLOCK = re.compile(r"^```(c|cpp)\n(.*?)^```", re.S | re.M)
BAD_STDERR = re.compile(r"error|terminate called|Signal|WARNING", re.I)


def libdir(prefix):
    for d in ("lib", "lib64", "lib/x86_64-linux-gnu"):
        if os.path.exists(os.path.join(prefix, d, "libdash.a")):
            return os.path.join(prefix, d)
    sys.exit(f"code_blocks: no libdash.a under {prefix}")


def compile_command(a, lib, env, lang, src, exe, body):
    """The compile command of one block, or a problem text when its flags cannot be found."""
    warn = ["-Wall", "-Wextra", "-Werror"]
    if lang == "c":
        return [a.cc, "-std=c11", *warn, f"-I{a.prefix}/include", src, "-o", exe, f"-L{lib}",
                "-ldart", "-lhwloc", "-lm"]
    extra = []
    if "dash/io/Hdf5.h" in body or "dash/io/HDF5.h" in body:
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "dash-hdf5"], env=env,
                               capture_output=True, text=True)
        if flags.returncode != 0:
            return f"pkg-config dash-hdf5: {flags.stderr.strip()}"
        # HDF5's own headers as system headers: -Werror is for the block's code.
        extra = [("-isystem" + f[2:]) if f.startswith("-I") else f for f in flags.stdout.split()]
    # -O0: the check is that the documentation compiles and runs, not how fast (-O1 took 2.2 x
    # as long for the whole test).
    return [os.path.join(a.prefix, "bin", "dash-mpicxx"), "-O0", *warn, src, "-o", exe, *extra]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--launch", required=True)
    ap.add_argument("--min-programs", type=int, default=1)
    ap.add_argument("-j", type=int, default=2, help="compiles at a time (default 2)")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    lib = libdir(a.prefix)
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(lib, "pkgconfig"))
    launch = shlex.split(a.launch)
    problems, blocks = [], []
    work = tempfile.mkdtemp(prefix="code_blocks.")
    for path in a.files:
        text = open(path).read()
        for m in BLOCK.finditer(text):
            lang, body = m.group(1), m.group(2)
            line = text.count("\n", 0, m.start()) + 1
            where = f"{os.path.relpath(path)}:{line}"
            if "int main" not in body:
                problems.append(f"{where}: a {lang} block that is not a complete program")
                continue
            name = f"{os.path.basename(path)[:-3]}_{line}"
            src = os.path.join(work, name + (".c" if lang == "c" else ".cc"))
            with open(src, "w") as f:
                f.write(body)
            blocks.append((where, name, lang, src, os.path.join(work, name), body))
    programs = len(blocks)

    def build(block):
        where, _, lang, src, exe, body = block
        cmd = compile_command(a, lib, env, lang, src, exe, body)
        if isinstance(cmd, str):
            return f"{where}: {cmd}"
        built = subprocess.run(cmd, capture_output=True, text=True, env=env)
        return None if built.returncode == 0 else f"{where}: does not compile:\n{built.stderr[:3000]}"

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.j)) as pool:
        built = list(pool.map(build, blocks))
    for block, problem in zip(blocks, built):
        where, name, _, _, exe, _ = block
        if problem:
            problems.append(problem)
            continue
        run_dir = os.path.join(work, "run_" + name)
        os.makedirs(run_dir)
        ran = subprocess.run(["timeout", "120", *launch, exe], cwd=run_dir, capture_output=True,
                             text=True)
        last = ran.stdout.strip().splitlines()[-1] if ran.stdout.strip() else ""
        bad = [l for l in ran.stderr.splitlines() if BAD_STDERR.search(l)]
        if ran.returncode != 0 or bad:
            problems.append(f"{where}: the run on 2 units exited {ran.returncode}:\n"
                            f"{ran.stdout[-2000:]}{ran.stderr[-2000:]}")
            continue
        print(f"{where}: compiled and ran on 2 units: {last}")
    if programs < a.min_programs:
        problems.append(f"{programs} programs found, expected at least {a.min_programs}")
    for p in problems:
        print(f"code_blocks: {p}")
    print("code_blocks: failed" if problems else f"code_blocks: passed ({programs} programs)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
