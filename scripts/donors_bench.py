"""The donors benchmark (issue: ingredients from elsewhere): for every
exercise of a folder such as examples/classes (reference.py, tests.json,
submissions/), repair its submissions with `repair batch`, with the
class's passing submissions as donors and without (--donor-count 0), over
several seeds, and count per exercise how many failing submissions get a
plausible patch (passes the suite) and a correct one (behaves like
reference.py on the suite's inputs and perturbations of them, as
scripts/bench.py checks).

Usage: python3 scripts/donors_bench.py [--seeds N] [--evaluations E] [DIR]
(DIR defaults to examples/classes; the repair binary is bin/repair, else
repair on PATH).
"""

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench", os.path.join(HERE, "bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def repair_binary():
    b = os.path.join(HERE, "..", "bin", "repair")
    return b if os.path.exists(b) else "repair"


def run(exdir, seed, evaluations, donors, binary):
    out = tempfile.mktemp(suffix=".jsonl")
    t0 = time.time()
    subprocess.run([binary, "batch", "--tests", "tests.json", "--seed", str(seed), "--evaluations", str(evaluations),
                    "--donor-count", str(donors), "--jsonl", out, "submissions"], cwd=exdir,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    secs = time.time() - t0
    recs = [json.loads(l) for l in open(out)]
    os.remove(out)
    return recs, secs


def correct(exdir, rec, suite):
    """Whether the patched submission behaves like the reference."""
    d = tempfile.mkdtemp()
    try:
        src = os.path.join(exdir, "submissions", os.path.basename(rec["submission"]))
        dst = os.path.join(d, os.path.basename(src))
        p = subprocess.run(["patch", "-s", "-o", dst, src], input=rec["patch"], text=True, capture_output=True)
        if p.returncode != 0:
            return False
        ok, _ = bench.behaves_like(dst, os.path.join(exdir, "reference.py"), suite)
        return ok
    finally:
        shutil.rmtree(d)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--evaluations", type=int, default=2000)
    ap.add_argument("dir", nargs="?", default=os.path.join(HERE, "..", "examples", "classes"))
    a = ap.parse_args()
    binary = os.path.abspath(repair_binary()) if os.path.sep in repair_binary() else repair_binary()
    rows = []
    tot = {}
    for name in sorted(os.listdir(a.dir)):
        exdir = os.path.join(a.dir, name)
        if not os.path.exists(os.path.join(exdir, "tests.json")):
            continue
        suite = json.load(open(os.path.join(exdir, "tests.json")))
        row = [name]
        for donors in (0, 5):
            plaus = corr = failing = 0
            secs = 0.0
            for seed in range(1, a.seeds + 1):
                recs, s = run(exdir, seed, a.evaluations, donors, binary)
                secs += s
                for r in recs:
                    if r["status"] in ("passes", "does not compile", "misnamed"):
                        continue
                    failing += 1
                    if r["status"] == "repaired":
                        plaus += 1
                        if correct(exdir, r, suite):
                            corr += 1
            row.append((plaus, corr, failing, secs))
            t = tot.setdefault(donors, [0, 0, 0, 0.0])
            t[0] += plaus
            t[1] += corr
            t[2] += failing
            t[3] += secs
        rows.append(row)
    print("| exercise | without donors: plausible | correct | with donors: plausible | correct | seconds (without / with) |")
    print("|---|---|---|---|---|---|")
    for name, (p0, c0, f0, s0), (p1, c1, f1, s1) in rows:
        print("| %s | %d/%d | %d | %d/%d | %d | %.0f / %.0f |" % (name, p0, f0, c0, p1, f1, c1, s0, s1))
    p0, c0, f0, s0 = tot[0]
    p1, c1, f1, s1 = tot[5]
    print("| all | %d/%d | %d | %d/%d | %d | %.0f / %.0f |" % (p0, f0, c0, p1, f1, c1, s0, s1))
    print("%d seeds, --evaluations %d per submission; each failing submission counted once per seed" % (a.seeds, a.evaluations))


if __name__ == "__main__":
    sys.exit(main())
