#!/usr/bin/python3
"""Checks the grades `repair batch` gives against plain pytest's.

For each exercise under bench/grading (a folder with test_<name>.py,
reference.py and submissions/) and each of its submissions (the reference
included), the grade plain pytest gives (the submission copied as the
module the test file imports, in a temporary directory of its own, counted
per test id from --junitxml) and the grade `repair batch` gives (its
--jsonl records). Then the cheat corpus (bench/grading/cheats, each a
submission of examples/class) graded the same two ways.

Prints a table and exits 1 when an honest submission's grade differs from
plain pytest's, or when any cheat is graded as passing by `repair batch`
(plain pytest being fooled by a cheat is expected and only reported).

    /usr/bin/python3 bench/grading/check.py --repair-bin /tmp/repair

--time reports `repair batch` wall time on examples/class for one binary
or more, runs interleaved (for before/after comparisons):

    /usr/bin/python3 bench/grading/check.py --time /tmp/repair-main --time /tmp/repair-new --runs 3

Standard library only.
"""
import argparse
import ast
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLASS = os.path.join(ROOT, "examples", "class")
CLASS_TESTS = os.path.join(CLASS, "test_letter_grade.py")

# The statuses of `repair batch` (package batch) under which the
# submission itself was not run against the suite: its "passed" count is
# not a grade.
NOT_GRADED = ("does not compile", "misnamed", "error")
# Only this status grades a submission as passing as handed in.
PASSES = "passes"


def module_of(test_file, folder_name):
    """The module the test file imports that the students write: the
    folder's name when the file imports it, else the first module it
    imports that this interpreter cannot find."""
    with open(test_file, encoding="utf-8") as f:
        tree = ast.parse(f.read(), test_file)
    names = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            names += [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module.split(".")[0])
    if folder_name in names:
        return folder_name
    import importlib.util

    for n in names:
        if importlib.util.find_spec(n) is None:
            return n
    sys.exit("check.py: %s: no module of the students' among its imports %s" % (test_file, names))


class Grade:
    """A grade: passed of total test ids; per test id "passed", "failed"
    or "skipped"; note says what went wrong when the run gave no report."""

    def __init__(self, passed=0, total=0, ids=None, note=""):
        self.passed, self.total, self.ids, self.note = passed, total, ids or {}, note

    def full(self):
        return self.total > 0 and self.passed == self.total

    def __str__(self):
        return "%d/%d" % (self.passed, self.total) + (" (%s)" % self.note if self.note else "")


def pytest_grade(python, test_file, module, submission, timeout, expected_ids=None):
    """Plain pytest's grade of submission: a temporary directory with the
    test file (and a conftest.py beside it) and the submission as
    module.py, pytest run there with --junitxml. A run that leaves no
    report (the process killed or exited early) fails every test id that
    expected_ids lists."""
    d = tempfile.mkdtemp(prefix="grading-pytest-")
    try:
        shutil.copy(test_file, d)
        conftest = os.path.join(os.path.dirname(test_file), "conftest.py")
        if os.path.exists(conftest):
            shutil.copy(conftest, d)
        shutil.copy(submission, os.path.join(d, module + ".py"))
        xml = os.path.join(d, "report.xml")
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        env.pop("PYTHONPATH", None)
        cmd = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "junit_family=xunit2",
               "--junitxml", xml, os.path.basename(test_file)]
        try:
            p = subprocess.run(cmd, cwd=d, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=timeout)
            code, out = p.returncode, p.stdout.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            code, out = None, "timed out after %ds" % timeout
        if not os.path.exists(xml):
            ids = {i: "failed" for i in expected_ids or ()}
            why = "no report: exit %s" % code if code is not None else out
            return Grade(0, len(ids), ids, why)
        ids = {}
        for case in ET.parse(xml).getroot().iter("testcase"):
            tid = "%s::%s" % (case.get("classname", ""), case.get("name", ""))
            tags = {c.tag for c in case}
            if "failure" in tags or "error" in tags:
                # (a teardown error after a pass is a second record of the id)
                ids[tid] = "failed"
            elif "skipped" in tags:
                ids.setdefault(tid, "skipped")
            else:
                ids.setdefault(tid, "passed")
        for i in expected_ids or ():
            ids.setdefault(i, "failed")
        passed = sum(1 for v in ids.values() if v == "passed")
        note = "" if code in (0, 1) else "pytest exit %s" % code
        return Grade(passed, len(ids), ids, note)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def batch_grades(binary, tests, module, subs, timeout, extra):
    """`repair batch`'s records of subs (path -> dict), one run for all;
    {} and the error when it fails."""
    d = tempfile.mkdtemp(prefix="grading-batch-")
    try:
        jsonl = os.path.join(d, "grades.jsonl")
        cmd = [binary, "batch", "--tests", tests, "--module", module, "--jsonl", jsonl] + extra + subs
        try:
            p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {}, "repair batch timed out after %ds" % timeout
        recs = {}
        if os.path.exists(jsonl):
            with open(jsonl, encoding="utf-8") as f:
                for line in f:
                    if line.strip():
                        r = json.loads(line)
                        recs[os.path.normpath(os.path.join(ROOT, r["submission"]))] = r
        err = ""
        if p.returncode != 0:
            tail = p.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
            err = "repair batch exit %d: %s" % (p.returncode, " / ".join(tail))
        return recs, err
    finally:
        shutil.rmtree(d, ignore_errors=True)


def batch_text(rec):
    if rec is None:
        return "no record"
    s = "%s %d/%d" % (rec["status"], rec.get("passed", 0), rec.get("cases", 0))
    how = rec.get("verdict") or rec.get("mode") or rec.get("how")
    if how:
        s += " [%s]" % how
    if rec.get("uses"):
        s += " uses " + ",".join(rec["uses"])
    if rec["status"] in NOT_GRADED and rec.get("detail"):
        s += ": " + rec["detail"][-60:]
    return s


def honest_match(pg, rec):
    """Whether batch's record grades as plain pytest did; the reason when not."""
    if rec is None:
        return False, "no batch record"
    st = rec["status"]
    if st in NOT_GRADED:
        return False, "not graded: %s" % (rec.get("detail") or st)[:120]
    if rec.get("passed") != pg.passed or rec.get("cases") != pg.total:
        return False, "passed %d/%d, pytest %d/%d" % (rec.get("passed", 0), rec.get("cases", 0), pg.passed, pg.total)
    if (st == PASSES) != pg.full():
        return False, "status %s, pytest %s" % (st, pg)
    return True, ""


def exercises(base, only):
    out = []
    for name in sorted(os.listdir(base)):
        d = os.path.join(base, name)
        test = os.path.join(d, "test_%s.py" % name)
        if not (os.path.isfile(test) and os.path.isfile(os.path.join(d, "reference.py"))):
            continue
        if only and name not in only:
            continue
        subs = sorted(os.path.join(d, "submissions", f) for f in os.listdir(os.path.join(d, "submissions"))
                      if f.endswith(".py"))
        out.append((name, test, module_of(test, name), [os.path.join(d, "reference.py")] + subs))
    return out


def table(rows, header):
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    line = lambda r: "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"
    print(line(header))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))


def grade_all(args):
    binary = os.path.abspath(args.repair_bin) if args.repair_bin else None
    extra = args.batch_args.split()
    pool = ThreadPoolExecutor(max(1, args.jobs))
    bad = 0
    rows = []
    rel = lambda p: os.path.relpath(p, ROOT)

    if not args.no_exercises:
        for name, test, module, subs in exercises(HERE, args.only):
            ref = pytest_grade(args.python, test, module, subs[0], args.timeout)
            if not ref.full():
                print("check.py: %s: reference.py fails plain pytest: %s" % (name, ref), file=sys.stderr)
                bad += 1
            grades = list(pool.map(lambda s: pytest_grade(args.python, test, module, s, args.timeout, ref.ids), subs))
            recs, err = batch_grades(binary, test, module, subs, args.batch_timeout, extra) if binary else ({}, "")
            if err:
                print("check.py: %s: %s" % (name, err), file=sys.stderr)
            for s, g in zip(subs, grades):
                rec = recs.get(os.path.normpath(s))
                if binary:
                    ok, why = honest_match(g, rec)
                    bad += not ok
                    verdict = "match" if ok else "DIFFERS: " + why
                else:
                    verdict = ""
                rows.append((name, rel(s).split("/", 3)[-1], "honest", str(g), batch_text(rec) if binary else "-", verdict))

    if not args.no_cheats:
        cheats = sorted(os.path.join(args.cheats, f) for f in os.listdir(args.cheats) if f.endswith(".py"))
        suites = [CLASS_TESTS] + ([os.path.join(CLASS, "tests.json")] if args.json_suite else [])
        module = module_of(CLASS_TESTS, "class")
        ref = pytest_grade(args.python, CLASS_TESTS, module, os.path.join(CLASS, "reference.py"), args.timeout)
        pgs = list(pool.map(lambda s: pytest_grade(args.python, CLASS_TESTS, module, s, args.timeout, ref.ids), cheats))
        for suite in suites:
            recs, err = batch_grades(binary, suite, module, cheats, args.batch_timeout, extra) if binary else ({}, "")
            if err:
                print("check.py: cheats (%s): %s" % (rel(suite), err), file=sys.stderr)
            for s, g in zip(cheats, pgs):
                rec = recs.get(os.path.normpath(s))
                fooled = g.full()
                if binary:
                    passing = rec is not None and rec["status"] == PASSES
                    bad += passing
                    verdict = "CHEAT PASSES" if passing else "caught"
                else:
                    verdict = ""
                if fooled:
                    verdict += " (fools plain pytest)"
                kind = "cheat" if suite == CLASS_TESTS else "cheat, tests.json"
                rows.append(("class", rel(s).split("/", 2)[-1], kind, str(g), batch_text(rec) if binary else "-", verdict))

    table(rows, ("exercise", "submission", "kind", "plain pytest", "repair batch", "verdict"))
    honest = [r for r in rows if r[2] == "honest"]
    cheat = [r for r in rows if r[2].startswith("cheat")]
    if binary:
        print()
        print("honest submissions graded as plain pytest grades them: %d of %d" %
              (sum(1 for r in honest if r[5] == "match"), len(honest)))
        print("cheats graded as passing by repair batch: %d of %d" %
              (sum(1 for r in cheat if r[5].startswith("CHEAT PASSES")), len(cheat)))
    print("cheats that fool plain pytest: %d of %d" % (sum(1 for r in cheat if "fools plain" in r[5]), len(cheat)))
    return 1 if bad else 0


def time_batch(args):
    """Wall time of `repair batch` on examples/class per binary, runs
    interleaved; the median of each and its ratio to the first's."""
    bins = [os.path.abspath(b) for b in args.time]
    extra = args.time_args.split()
    subs = os.path.join(CLASS, "submissions")
    times = [[] for _ in bins]
    for i in range(args.runs):
        for k, b in enumerate(bins):
            d = tempfile.mkdtemp(prefix="grading-time-")
            cmd = [b, "batch", "--tests", args.time_tests, "--jsonl", os.path.join(d, "g.jsonl")] + extra + [subs]
            t0 = time.monotonic()
            p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            dt = time.monotonic() - t0
            shutil.rmtree(d, ignore_errors=True)
            if p.returncode != 0:
                tail = p.stderr.decode("utf-8", "replace").strip().splitlines()[-2:]
                print("check.py: %s exit %d: %s" % (b, p.returncode, " / ".join(tail)), file=sys.stderr)
                return 1
            times[k].append(dt)
            print("run %d  %-40s %7.2fs" % (i + 1, b, dt), flush=True)
    try:
        load = " (load %.1f %.1f %.1f)" % os.getloadavg()
    except OSError:
        load = ""
    print()
    print("repair batch --tests %s %s examples/class/submissions, %d runs%s:" %
          (os.path.relpath(args.time_tests, ROOT), " ".join(extra), args.runs, load))
    base = statistics.median(times[0])
    for b, ts in zip(bins, times):
        m = statistics.median(ts)
        print("  %-40s median %7.2fs  min %7.2fs  max %7.2fs  x%.2f" % (b, m, min(ts), max(ts), m / base))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repair-bin", help="the repair binary to grade with (without it: plain pytest's grades only)")
    ap.add_argument("--python", default="/usr/bin/python3", help="the interpreter plain pytest runs with")
    ap.add_argument("--only", nargs="*", help="these exercises only")
    ap.add_argument("--no-exercises", action="store_true", help="the cheat corpus only")
    ap.add_argument("--no-cheats", action="store_true", help="the exercises only")
    ap.add_argument("--cheats", default=os.path.join(HERE, "cheats"), help="the cheat corpus (submissions of examples/class)")
    ap.add_argument("--json-suite", action="store_true", help="grade the cheats against examples/class/tests.json too")
    ap.add_argument("--batch-args", default="--evaluations 1 --guard-inputs 0 --donors 0",
                    help="more flags for repair batch when grading (default: grade, search as little as it can)")
    ap.add_argument("--jobs", type=int, default=2, help="plain pytest runs at once")
    ap.add_argument("--timeout", type=int, default=60, help="seconds for one plain pytest run")
    ap.add_argument("--batch-timeout", type=int, default=900, help="seconds for one repair batch run")
    ap.add_argument("--time", action="append", metavar="BIN", help="report repair batch wall time on examples/class for BIN (repeatable)")
    ap.add_argument("--runs", type=int, default=3, help="--time: runs of each binary")
    ap.add_argument("--time-args", default="--evaluations 400", help="--time: flags for repair batch")
    ap.add_argument("--time-tests", default=CLASS_TESTS, help="--time: the suite")
    args = ap.parse_args()
    if args.time:
        return time_batch(args)
    return grade_all(args)


if __name__ == "__main__":
    sys.exit(main())
