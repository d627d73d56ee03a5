#!/usr/bin/env python3
"""Scaling benchmark: does the cost of a repair follow the change or the project?

Makes the scaling workloads of docs/design.md §11 in a temporary directory and
runs one or more repair binaries on each, interleaved (this machine is
shared and noisy: compare binaries measured in the same run):

  lines-N     the one-token bug of middle() (examples/middle) in a file
              padded with never-called helper functions to N lines
              (13, 100, 1,000, 5,000), the 200-case suite;
  cases-N     middle.py with a suite of N cases (50, 200, 1,000, 5,000);
  sleep       middle() whose every call first sleeps 50 ms (I/O-bound code,
              as in many real tests), 12 cases;
  pytest-2000 the lines-N file at 2,000 lines with a pytest file of 100
              test functions (run by the real pytest where the interpreter,
              or the system python3, has it).

For each workload, binary and seed it prints the time to the first
plausible patch, the evaluations, evaluations/s and the peak resident set
of the Go process itself (VmHWM from /proc, polled; the Python processes
it starts are not counted), then the medians per workload and binary.

Usage:
  python3 scripts/scale_bench.py                          # bin/repair, 3 seeds
  python3 scripts/scale_bench.py --repair new=bin/repair --repair old=/tmp/old/repair
  python3 scripts/scale_bench.py --only lines-5000,sleep --seeds 5
  python3 scripts/scale_bench.py -- --engine gpython     # flags for repair

Standard library only. --json FILE writes every trial.
"""

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MIDDLE = os.path.join(ROOT, "examples", "middle")

BUGGY = '''def middle(x, y, z):
    """Return the middle value of x, y and z."""
    if y < z:
        if x < y:
            return y
        elif x < z:
            return y
    else:
        if x > y:
            return y
        elif x > z:
            return x
    return z
'''

SLEEPY = '''import time


def middle(x, y, z):
    """Return the middle value of x, y and z, after a 50 ms wait."""
    time.sleep(0.05)
    if y < z:
        if x < y:
            return y
        elif x < z:
            return y
    else:
        if x > y:
            return y
        elif x > z:
            return x
    return z
'''

# Never-called helpers, four shapes so that the file's statements are not
# all alike (the operators draw ingredients from them).
TEMPLATES = [
    '''def helper_{k}(a, b):
    total = a + {k}
    for i in range(b):
        if i % {m} == 0:
            total -= i
        else:
            total += a * i
    return total
''',
    '''def scale_{k}(items, factor={m}):
    out = []
    for item in items:
        if item is None:
            continue
        out.append(item * factor)
    return out
''',
    '''def find_{k}(xs, target):
    lo, hi = 0, len(xs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if xs[mid] < target:
            lo = mid + 1
        elif xs[mid] > target:
            hi = mid - 1
        else:
            return mid
    return -{m}
''',
    '''def label_{k}(n):
    if n < {m}:
        return "small"
    if n > {k}:
        return "large"
    return "medium"
''',
]


def padded(lines):
    """BUGGY padded with helpers to about `lines` lines, middle() halfway."""
    if lines <= BUGGY.count("\n"):
        return BUGGY
    rng = random.Random(lines)
    before, after = [], []
    total = BUGGY.count("\n")
    k = 0
    while total < lines:
        t = TEMPLATES[k % len(TEMPLATES)].format(k=k, m=rng.randint(2, 9))
        (before if k % 2 == 0 else after).append(t)
        total += t.count("\n") + 2
        k += 1
    return "\n\n".join(before + [BUGGY] + after)


def reference_middle(x, y, z):
    return sorted([x, y, z])[1]


def suite(n, seed=1, timeout=None):
    rng = random.Random(seed)
    base = json.load(open(os.path.join(MIDDLE, "tests.json")))
    tests = list(base["tests"])
    while len(tests) < n:
        args = [rng.randint(-50, 50) for _ in range(3)]
        tests.append({"args": args, "expected": reference_middle(*args)})
    if n < len(tests):
        # Evenly spaced: examples/middle's passing cases come first, its
        # failing ones after them.
        tests = [tests[i * len(tests) // n] for i in range(n)]
    s = {"function": "middle", "tests": tests}
    if timeout:
        s["timeout"] = timeout
    return s


def sleepy_suite():
    # 12 cases, some of which the bug fails (x in the middle, y < z).
    argss = [[2, 1, 3], [1, 2, 3], [3, 2, 1], [5, 5, 5], [2, 3, 1], [1, 3, 2],
             [3, 1, 2], [4, 2, 6], [7, 9, 8], [0, -1, 1], [6, 5, 7], [9, 8, 10]]
    return {"function": "middle", "timeout": 2,
            "tests": [{"args": a, "expected": reference_middle(*a)} for a in argss]}


def pytest_file(n=100, seed=7):
    """A test file of n plain test functions of middle(), as a project's
    would: most assert one call, some several."""
    rng = random.Random(seed)
    out = ["from middle import middle\n"]
    for k in range(n):
        calls = []
        for _ in range(1 + (k % 3 == 0) * 2):
            args = [rng.randint(-20, 20) for _ in range(3)]
            calls.append("    assert middle(%d, %d, %d) == %d\n" % (*args, reference_middle(*args)))
        out.append("\n\ndef test_middle_%d():\n%s" % (k, "".join(calls)))
    return "".join(out)


def workloads(only):
    ws = []
    for n in (13, 100, 1000, 5000):
        ws.append(("lines-%d" % n, padded(n), suite(200)))
    for n in (50, 200, 1000, 5000):
        ws.append(("cases-%d" % n, BUGGY, suite(n)))
    ws.append(("sleep", SLEEPY, sleepy_suite()))
    ws.append(("pytest-2000", padded(2000), pytest_file()))
    if only:
        keep = set(only.split(","))
        unknown = keep - {w[0] for w in ws}
        if unknown:
            sys.exit("scale_bench: unknown workload(s): %s" % ", ".join(sorted(unknown)))
        ws = [w for w in ws if w[0] in keep]
    return ws


def peak_rss_kb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def trial(binary, work, name, src, tests, seed, budget, extra):
    d = tempfile.mkdtemp(prefix="scale-", dir=work)
    try:
        with open(os.path.join(d, "middle.py"), "w") as f:
            f.write(src)
        suite = "tests.json"
        if isinstance(tests, str):
            suite = "test_middle.py"  # a pytest file
            with open(os.path.join(d, suite), "w") as f:
                f.write(tests)
        else:
            with open(os.path.join(d, suite), "w") as f:
                json.dump(tests, f)
        cmd = [binary, "--target", "middle.py", "--tests", suite, "--seed", str(seed),
               "--time-budget", budget, "--report", "r.json", "-q"] + extra
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        peak = 0
        while p.poll() is None:
            kb = peak_rss_kb(p.pid)
            if kb:
                peak = max(peak, kb)
            time.sleep(0.02)
        wall = time.monotonic() - t0
        err = p.stderr.read().decode(errors="replace").strip()
        rep = {}
        try:
            rep = json.load(open(os.path.join(d, "r.json")))
        except (OSError, ValueError):
            pass
        secs = rep.get("seconds") or wall
        evals = rep.get("evaluations") or 0
        search = (rep.get("stage_seconds") or {}).get("search") or 0
        return {
            "workload": name, "seed": seed, "exit": p.returncode,
            "plausible": p.returncode == 0, "wall": wall, "seconds": secs,
            "evaluations": evals,
            "eval_per_s": evals / search if search else (evals / secs if secs else 0),
            "peak_rss_mb": peak / 1024.0, "error": err.splitlines()[-1] if (err and p.returncode not in (0, 1)) else "",
        }
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repair", action="append",
                    help="LABEL=PATH of a repair binary (repeatable; default bin/repair)")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--time-budget", default="60s")
    ap.add_argument("--only", help="comma-separated workloads (lines-13, ..., cases-5000, sleep, pytest-2000)")
    ap.add_argument("--json", help="write every trial to this file")
    args = ap.parse_args(argv)

    bins = []
    for r in args.repair or ["new=" + os.path.join(ROOT, "bin", "repair")]:
        label, _, path = r.partition("=")
        if not path:
            label, path = os.path.basename(r), r
        path = os.path.abspath(path)
        if not os.access(path, os.X_OK):
            sys.exit("scale_bench: %s: not an executable (build it: go build -o bin/repair ./cmd/repair)" % path)
        bins.append((label, path))

    work = tempfile.mkdtemp(prefix="scale-bench-")
    rows = []
    try:
        for name, src, tests in workloads(args.only):
            for seed in range(1, args.seeds + 1):
                for label, path in bins:  # interleaved: one run of each binary per seed
                    r = trial(path, work, name, src, tests, seed, args.time_budget, extra)
                    r["binary"] = label
                    r["lines"] = src.count("\n")
                    rows.append(r)
                    print("%-11s %-6s seed %d: exit %d, %.2fs, %d evaluations, %.0f/s, %.0f MB%s" % (
                        name, label, seed, r["exit"], r["seconds"], r["evaluations"], r["eval_per_s"],
                        r["peak_rss_mb"], (" (" + r["error"] + ")") if r["error"] else ""),
                        file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    if args.json:
        with open(args.json, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")

    print("| workload | lines | binary | plausible | time to patch (s) | evaluations | evaluations/s | Go peak RSS (MB) |")
    print("|---|---|---|---|---|---|---|---|")
    seen = []
    for r in rows:
        k = (r["workload"], r["binary"])
        if k not in seen:
            seen.append(k)
    for name, label in seen:
        rs = [r for r in rows if r["workload"] == name and r["binary"] == label]
        ok = [r for r in rs if r["plausible"]]
        med = lambda key, xs: statistics.median(r[key] for r in xs) if xs else float("nan")
        print("| %s | %d | %s | %d/%d | %.2f | %.0f | %.0f | %.0f |" % (
            name, rs[0]["lines"], label, len(ok), len(rs), med("seconds", ok), med("evaluations", ok),
            med("eval_per_s", rs), max(r["peak_rss_mb"] for r in rs)))


if __name__ == "__main__":
    main()
