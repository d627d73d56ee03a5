#!/usr/bin/env python3
"""Where the time of a small repair goes: stage medians per engine.

Runs repair on one bug (default examples/middle, the Debugging Book's
middle() with 200 cases) for N seeds with each engine, trials interleaved
(this machine is shared and noisy: compare what one run measured), and
prints the median of each stage --report gives (localize, search, reduce,
guard), of the process's overhead outside them (start-up, engine pools
starting and stopping, the diff: the wall time minus --report's seconds),
and of the wall time. A second table does the same for start-up alone
(--evaluations 1 --guard-inputs 0).

The Debugging Book's Repairer, when given --book-cmd (a shell command that
repairs the same bug once, e.g. a script of your own around a local copy of
the book's code, which this repository does not hold), is timed the same
way, interleaved.

Several builds (--repair NAME=BINARY, repeated) run interleaved, trial by
trial, so that one run compares them on the same machine load.

Usage:
  python3 scripts/stage_bench.py                       # bin/repair, 20 seeds
  python3 scripts/stage_bench.py --engines cpython,hybrid --seeds 10
  python3 scripts/stage_bench.py --repair old=/tmp/old/repair --repair new=bin/repair

Standard library only.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
STAGES = ["localize", "search", "reduce", "guard"]


def trial(binary, bug, target, tests, engine, seed, extra, work):
    d = tempfile.mkdtemp(dir=work)
    try:
        for f in os.listdir(bug):
            p = os.path.join(bug, f)
            if os.path.isfile(p):
                shutil.copy(p, d)
        rep = os.path.join(d, "r.json")
        cmd = [binary, "--target", target, "--tests", tests, "--engine", engine, "--seed", str(seed),
               "--report", rep, "-q"] + extra
        t0 = time.monotonic()
        p = subprocess.run(cmd, cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.monotonic() - t0
        row = {"engine": engine, "seed": seed, "exit": p.returncode, "wall": wall}
        try:
            r = json.load(open(rep))
        except (OSError, ValueError):
            row["error"] = p.stderr.strip().splitlines()[-1:] or [""]
            return row
        st = r.get("stage_seconds") or {}
        for s in STAGES:
            row[s] = st.get(s, 0.0)
        row["overhead"] = wall - r.get("seconds", 0.0)
        row["evaluations"] = r.get("evaluations", 0)
        return row
    finally:
        shutil.rmtree(d, ignore_errors=True)


def book_trial(cmd):
    t0 = time.monotonic()
    p = subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return {"engine": "book", "exit": p.returncode, "wall": time.monotonic() - t0}


def table(title, rows, engines, cols):
    print("\n%s\n" % title)
    print("| engine | " + " | ".join(cols) + " | trials |")
    print("|---" * (len(cols) + 2) + "|")
    for e in engines:
        rs = [r for r in rows if r["engine"] == e and "error" not in r]
        if not rs:
            print("| %s | " % e + " | ".join("—" for _ in cols) + " | 0 |")
            continue
        cells = []
        for c in cols:
            xs = [r[c] for r in rs if c in r]
            cells.append("%.3f" % statistics.median(xs) if xs else "—")
        print("| %s | %s | %d |" % (e, " | ".join(cells), len(rs)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repair", action="append",
                    help="NAME=BINARY (repeatable; default bin/repair)")
    ap.add_argument("--bug", default=os.path.join(ROOT, "examples", "middle"),
                    help="a folder with the target and its suite")
    ap.add_argument("--target", default="middle.py")
    ap.add_argument("--tests", default="tests.json")
    ap.add_argument("--engines", default="cpython,gpython,hybrid")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--book-cmd", help="a shell command that runs the Debugging Book's Repairer once on the same bug")
    args = ap.parse_args()
    builds = []
    for spec in args.repair or [os.path.join(ROOT, "bin", "repair")]:
        name, _, path = spec.rpartition("=")
        builds.append((name or os.path.basename(path), path))
        if not os.access(path, os.X_OK):
            sys.exit("stage_bench: %s: not an executable (go build -o bin/repair ./cmd/repair)" % path)
    engines = args.engines.split(",")
    work = tempfile.mkdtemp(prefix="stage-bench-")
    full, start = [], []

    def label(build, e):
        return e if len(builds) == 1 else "%s %s" % (build, e)

    try:
        for seed in range(1, args.seeds + 1):
            for e in engines:
                for build, path in builds:
                    r = trial(path, args.bug, args.target, args.tests, e, seed, [], work)
                    r["engine"] = label(build, e)
                    full.append(r)
                    r = trial(path, args.bug, args.target, args.tests, e, seed,
                              ["--evaluations", "1", "--guard-inputs", "0"], work)
                    r["engine"] = label(build, e)
                    start.append(r)
            if args.book_cmd:
                full.append(book_trial(args.book_cmd))
            print("seed %d done" % seed, file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    engines = [label(b, e) for e in engines for b, _ in builds]
    names = engines + (["book"] if args.book_cmd else [])
    table("End to end (defaults, guard on), medians in seconds over %d seeds:" % args.seeds,
          full, names, STAGES + ["overhead", "wall"])
    table("Start-up (--evaluations 1 --guard-inputs 0), medians in seconds:", start, engines, ["overhead", "wall"])
    for r in full + start:
        if "error" in r:
            print("error (%s, seed %s): %s" % (r["engine"], r.get("seed"), r["error"]), file=sys.stderr)


if __name__ == "__main__":
    main()
