#!/usr/bin/env python3
"""Run repair on a benchmark of buggy programs and report what it fixed.

Each benchmark folder holds NAME.py (the buggy program), tests.json (its
suite) and optionally reference.py (the fixed program). For every folder and
seed this runs

    repair --target NAME.py --tests tests.json --seed S --write --report R

on a private copy, then classifies the outcome:

  plausible  the patched program passes the suite (repair exited 0);
  correct    it also behaves like reference.py: the same return values,
             exceptions and argument states on the suite's inputs and on
             perturbations of them (neighbouring numbers, shorter and
             reordered lists, edited strings), one and two steps away.
             For a Python test file, the suite's inputs are the calls its
             tests make into reference.py (recorded by running the test
             file under pytest): functions with their arguments, and the
             objects the tests make with every method they call on them,
             which are replayed with one call left out or an argument
             moved.

Usage:
  python3 scripts/bench.py                       # ../shared/bench, 5 seeds
  python3 scripts/bench.py --seeds 20 examples   # our own examples
  python3 scripts/bench.py --markdown two_sum median
  python3 scripts/bench.py examples -- --engine gpython   # flags for repair

Standard library only. Prints a table and a summary line; --json FILE writes
every trial.
"""

import argparse
import copy
import importlib.util
import json
import math
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def find_bugs(dirs, names):
    bugs = []
    for d in dirs:
        d = os.path.abspath(d)
        if os.path.exists(os.path.join(d, "tests.json")) or any(
                f.startswith("test_") and f.endswith(".py") for f in os.listdir(d)):
            cands = [d]
        else:
            cands = [os.path.join(d, n) for n in sorted(os.listdir(d))]
        for c in cands:
            if not os.path.isdir(c):
                continue
            tests = "tests.json"
            if not os.path.exists(os.path.join(c, tests)):
                pyt = sorted(p for p in os.listdir(c) if p.startswith("test_") and p.endswith(".py"))
                if not pyt:
                    continue
                tests = pyt[0]
            name = os.path.basename(c)
            if names and name not in names:
                continue
            target = None
            if tests.endswith(".json"):
                with open(os.path.join(c, tests)) as f:
                    suite = json.load(f)
                target = suite.get("target") if isinstance(suite, dict) else None
            if not target:
                target = name + ".py"
            if not os.path.exists(os.path.join(c, target)):
                pys = [p for p in os.listdir(c) if p.endswith(".py") and p != "reference.py" and not p.startswith("test_")]
                if len(pys) != 1:
                    continue
                target = pys[0]
            bugs.append((name, c, target, tests))
    return bugs


class Timeout(Exception):
    pass


_armed = [False]


def _alarm(signum, frame):
    if _armed[0]:  # never raise outside the call being timed
        _armed[0] = False
        raise Timeout()


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def call(path, func, args, kwargs, timeout=2.0, then=None):
    """Call func of a fresh import of path; return a comparable outcome.
    With then ([[method, args, kwargs], ...]) call each method in turn on
    what func returned: the outcome holds what each returned."""
    try:
        mod = load(path, "m_%d" % abs(hash(path)))
    except Exception as e:  # noqa: BLE001
        return ("import-error", type(e).__name__)
    args = copy.deepcopy(args)
    kwargs = copy.deepcopy(kwargs)
    then = copy.deepcopy(then)
    signal.signal(signal.SIGALRM, _alarm)
    _armed[0] = True
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        f = mod
        for part in func.split("."):
            f = getattr(f, part)
        ret = f(*args, **kwargs)
        if then is not None:
            ret = [steady(getattr(ret, m)(*a, **kw)) for m, a, kw in then]
        if hasattr(ret, "__next__"):
            ret = list(ret)
        _armed[0] = False
        out = ("ok", norm(ret), norm(args))
    except Timeout:
        out = ("timeout",)
    except RecursionError:
        out = ("raise", "RecursionError")
    except Exception as e:  # noqa: BLE001
        out = ("raise", type(e).__name__)
    finally:
        _armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
    return out


def steady(v):
    """An object without a value of its own (object's repr) by its class."""
    if hasattr(v, "__next__"):
        v = list(v)
    if isinstance(v, (list, tuple)):
        return [steady(x) for x in v]
    if type(v).__repr__ is object.__repr__:
        return "<%s>" % type(v).__qualname__
    return v


def norm(v):
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        return round(v, 9)
    if isinstance(v, (list, tuple)):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {str(k): norm(x) for k, x in v.items()}
    if isinstance(v, (set, frozenset)):
        return sorted((norm(x) for x in v), key=repr)
    return v


def perturb(v, depth=0):
    """Neighbouring values of an argument."""
    out = []
    if isinstance(v, bool):
        out.append(not v)
    elif isinstance(v, int):
        out += [v + 1, v - 1, 0, -v, v * 2]
    elif isinstance(v, float):
        out += [v + 0.5, v - 0.5, 0.0, -v]
    elif isinstance(v, str):
        out += ["", v[1:], v[:-1], v + v[-1:], v[::-1]]
    elif isinstance(v, list) and depth < 2:
        out += [v[::-1], v[1:], v[:-1], v + v[:1], sorted(v, key=repr)]
        for i, x in enumerate(v[:3]):
            for y in perturb(x, depth + 1)[:2]:
                w = list(v)
                w[i] = y
                out.append(w)
    return [x for x in out if x != v]


def inputs(suite):
    default = suite.get("function") or suite.get("function_name")
    seen = set()
    for case in suite.get("tests", []):
        if "stdin" in case:
            continue
        func = case.get("function") or case.get("function_name") or default
        args = case.get("args", [])
        kwargs = case.get("kwargs") or case.get("parameters") or {}
        variants = [args]
        for i, a in enumerate(args):
            for p in perturb(a):
                w = list(args)
                w[i] = p
                variants.append(w)
        # Two steps away, which the tool's own overfitting guard never
        # generates (it moves one argument one step): two arguments moved
        # at once, or one moved twice.
        for i, a in enumerate(args):
            for p in perturb(a)[:4]:
                for j in range(len(args)):
                    for q in perturb(p if j == i else args[j])[:4]:
                        w = list(args)
                        w[i] = p
                        w[j] = q
                        variants.append(w)
        for v in variants:
            key = json.dumps([func, v, kwargs], sort_keys=True, default=repr)
            if key not in seen:
                seen.add(key)
                yield func, v, kwargs


# RECORDER runs a test file under pytest with reference.py as the target
# module, and writes the calls its tests make into the target (the
# tool's harness records the same in its own runs, record.py): argv is
# the output file, the module name, reference.py and the test file.
RECORDER = r"""
import importlib.util, json, math, sys
out, module, ref, test = sys.argv[1:5]
spec = importlib.util.spec_from_file_location(module, ref)
mod = importlib.util.module_from_spec(spec)
sys.modules[module] = mod
spec.loader.exec_module(mod)
calls, objs, keep = [], {}, []
FT = type(lambda: None)


def plain(v, d=0):
    t = type(v)
    if v is None or t in (bool, int, str):
        return True
    if t is float:
        return math.isfinite(v)
    if t is list and d < 20:
        return all(plain(x, d + 1) for x in v)
    if t is dict and d < 20:
        return all(type(k) is str and plain(x, d + 1) for k, x in v.items())
    return False


def copy(v):
    return json.loads(json.dumps(v))


def outside():
    return sys._getframe(2).f_code.co_filename != ref


def wrap(f, name):
    def w(*a, **k):
        if outside() and plain(list(a)) and plain(k):
            calls.append({"function": name, "args": copy(list(a)), "kwargs": copy(k)})
        return f(*a, **k)
    w.__wrapped__, w.__name__ = f, f.__name__
    return w


def wrap_method(f, attr):
    def w(self, *a, **k):
        if outside():
            e = objs.get(id(self), 0)
            ok = plain(list(a)) and plain(k)
            if e == 0:
                if attr == "__init__" or type(self).__init__ is object.__init__:
                    e = {"function": type(self).__qualname__, "args": [], "kwargs": {}, "then": []}
                    calls.append(e)
                    keep.append(self)
                    objs[id(self)] = e
                    if attr == "__init__":
                        if ok:
                            e["args"], e["kwargs"] = copy(list(a)), copy(k)
                        else:
                            e["then"] = None
                        return f(self, *a, **k)
                else:
                    objs[id(self)] = e = None
                    keep.append(self)
            if e is not None and e["then"] is not None and attr != "__init__":
                if ok:
                    e["then"].append([attr, copy(list(a)), copy(k)])
                else:
                    e["then"] = None
        return f(self, *a, **k)
    w.__wrapped__, w.__name__ = f, f.__name__
    return w


for name, v in list(vars(mod).items()):
    if type(v) is FT and v.__module__ == module:
        setattr(mod, name, wrap(v, name))
    elif isinstance(v, type) and v.__module__ == module:
        for attr, f in list(vars(v).items()):
            if type(f) is FT:
                setattr(v, attr, wrap_method(f, attr))
            elif type(f) in (staticmethod, classmethod) and type(f.__func__) is FT:
                setattr(v, attr, type(f)(wrap(f.__func__, name + "." + attr)))
import pytest

pytest.main([test, "-q", "-p", "no:cacheprovider"])
with open(out, "w") as fh:
    json.dump([c for c in calls if c.get("then", 0) is not None], fh)
"""


def pytest_python():
    """An interpreter that has pytest: this one, else the system's."""
    for py in (sys.executable, "/usr/bin/python3", "python3"):
        try:
            if subprocess.run([py, "-c", "import pytest"], capture_output=True).returncode == 0:
                return py
        except OSError:
            pass
    return None


def record_calls(folder, target, tests):
    """The calls the test file tests makes into reference.py run as the
    target (a list of {function, args, kwargs[, then]}), or None."""
    py = pytest_python()
    if py is None:
        return None
    d = tempfile.mkdtemp(prefix="bench-record-")
    try:
        for f in os.listdir(folder):
            if f.endswith(".py") and f != target:
                shutil.copy(os.path.join(folder, f), os.path.join(d, f))
        module = os.path.splitext(target)[0]
        ref = os.path.join(d, target)
        shutil.copy(os.path.join(folder, "reference.py"), ref)
        out = os.path.join(d, "calls.json")
        subprocess.run([py, "-c", RECORDER, out, module, ref, os.path.join(d, tests)], cwd=d,
                       capture_output=True, text=True, timeout=120)
        with open(out) as f:
            return json.load(f)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return None
    finally:
        shutil.rmtree(d, ignore_errors=True)


def call_inputs(calls):
    """The inputs of recorded calls: each as recorded, then one argument
    moved one or two steps, or (of an object) one or two method calls left
    out, one made alone, or one of its arguments moved."""
    seen = set()
    for c in calls:
        func, args, kwargs, then = c["function"], c.get("args") or [], c.get("kwargs") or {}, c.get("then")
        variants = [(args, then)]
        for i, a in enumerate(args):
            for p in perturb(a):
                w = list(args)
                w[i] = p
                variants.append((w, then))
                for q in perturb(p)[:4]:
                    w2 = list(args)
                    w2[i] = q
                    variants.append((w2, then))
        for j, st in enumerate(then or []):
            variants.append((args, then[:j] + then[j + 1:]))
            variants.append((args, [st]))
            for k in range(j + 1, len(then)):
                variants.append((args, then[:j] + then[j + 1:k] + then[k + 1:]))
            for i, a in enumerate(st[1]):
                for p in perturb(a):
                    w = list(st[1])
                    w[i] = p
                    variants.append((args, then[:j] + [[st[0], w, st[2]]] + then[j + 1:]))
        for v, t in variants:
            key = json.dumps([func, v, kwargs, t], sort_keys=True, default=repr)
            if key not in seen:
                seen.add(key)
                yield func, v, kwargs, t


def calls_behave_like(patched, reference, calls):
    """Return (True, None) or (False, the first differing input)."""
    for func, args, kwargs, then in call_inputs(calls):
        a = call(patched, func, args, kwargs, then=then)
        b = call(reference, func, args, kwargs, then=then)
        if a != b:
            return False, (func, args, then, a, b)
    return True, None


def behaves_like(patched, reference, suite):
    """Return (True, None) or (False, the first differing input)."""
    if isinstance(suite, list):
        return calls_behave_like(patched, reference, suite)
    if any("stdin" in c for c in suite.get("tests", [])):
        return io_behaves_like(patched, reference, suite)
    for func, args, kwargs in inputs(suite):
        a = call(patched, func, args, kwargs)
        b = call(reference, func, args, kwargs)
        if a != b:
            return False, (func, args, a, b)
    return True, None


def io_behaves_like(patched, reference, suite):
    """Compare the standard output of both programs on the suite's inputs
    and on edited copies of them."""
    seen = set()
    for case in suite.get("tests", []):
        for s in [case.get("stdin", "")] + perturb(case.get("stdin", "")):
            if s in seen:
                continue
            seen.add(s)
            outs = []
            for prog in (patched, reference):
                try:
                    p = subprocess.run([sys.executable, prog], input=s, capture_output=True, text=True, timeout=5)
                    outs.append((p.returncode, p.stdout))
                except subprocess.TimeoutExpired:
                    outs.append(("timeout",))
            if outs[0] != outs[1]:
                return False, (s, outs[0], outs[1])
    return True, None


def fix_correct(folder, target, diff, ref, suite, work):
    """Apply one reported diff to a fresh copy of the target and judge it."""
    d = tempfile.mkdtemp(dir=work)
    shutil.copy(os.path.join(folder, target), os.path.join(d, target))
    os.chmod(os.path.join(d, target), 0o644)
    p = subprocess.run(["patch", "-s", "-p1", "-d", d], input=diff, capture_output=True, text=True)
    if p.returncode != 0:
        return None
    return behaves_like(os.path.join(d, target), ref, suite)[0]


def run_trial(repair, bug, seed, budget, extra):
    name, folder, target, tests = bug
    work = tempfile.mkdtemp(prefix="bench-")
    try:
        dst = os.path.join(work, name)
        shutil.copytree(folder, dst)
        for f in os.listdir(dst):  # the benchmark's files may be read-only
            os.chmod(os.path.join(dst, f), 0o644)
        report = os.path.join(work, "report.json")
        cmd = [repair, "--target", target, "--tests", tests, "--seed", str(seed),
               "--time-budget", budget, "--write", "--quiet", "--report", report] + extra
        t0 = time.monotonic()
        p = subprocess.run(cmd, cwd=dst, capture_output=True, text=True)
        wall = time.monotonic() - t0
        trial = {"bug": name, "seed": seed, "exit": p.returncode, "wall": wall}
        if os.path.exists(report):
            with open(report) as f:
                r = json.load(f)
            trial.update(outcome=r["outcome"], seconds=r["seconds"], evaluations=r["evaluations"],
                         generations=r["generations"],
                         search_seconds=(r.get("stage_seconds") or {}).get("search", 0),
                         # When the first fix was delivered (the search
                         # may go on for alternatives after it); a report
                         # without the field stopped there.
                         first_fix_seconds=r.get("first_fix_seconds") or r["seconds"])
            if r["fixes"]:
                trial["edits"] = r["fixes"][0]["describe"]
                trial["found_evaluations"] = r["fixes"][0]["evaluations"]
                trial["guard"] = [fx.get("guard") for fx in r["fixes"]]
                trial["diffs"] = [fx["diff"] for fx in r["fixes"]]
        else:
            trial.update(outcome="error", stderr=p.stderr.strip()[-500:])
        # Exit 4: the patch passes the suite but the guard found it
        # suspect (it breaks an input next to the suite's).
        trial["plausible"] = p.returncode in (0, 4)
        trial["suspect"] = p.returncode == 4
        trial["correct"] = False
        ref = os.path.join(dst, "reference.py")
        suite = None
        if trial["plausible"] and os.path.exists(ref) and not tests.endswith(".json"):
            # A Python test file: the calls its tests make into the
            # reference are the inputs.
            suite = record_calls(folder, target, tests)
            if not suite:
                trial["correct"] = None  # nothing to judge by but the suite
        elif trial["plausible"] and os.path.exists(ref):
            with open(os.path.join(dst, tests)) as f:
                suite = json.load(f)
        if suite:
            ok, diff = behaves_like(os.path.join(dst, target), ref, suite)
            trial["correct"] = ok
            if not ok:
                trial["differs_on"] = repr(diff)[:300]
            # Every fix the run reported (the guard ranks them; the first
            # is the one written), judged the same way on a fresh copy.
            trial["fixes_correct"] = [fix_correct(folder, target, d, ref, suite, work) for d in trial.get("diffs", [])]
        return trial
    finally:
        shutil.rmtree(work, ignore_errors=True)


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def report(ns, trials):
    rows = []
    for name in dict.fromkeys(t["bug"] for t in trials):
        ts = [t for t in trials if t["bug"] == name]
        pl = [t for t in ts if t["plausible"]]
        co = [t for t in ts if t["correct"] or (t["correct"] is None and t["plausible"])]
        rows.append((name, len(pl), len(co), len(ts),
                     median([t["seconds"] for t in pl]),
                     median([t.get("found_evaluations", 0) for t in pl]),
                     "; ".join(pl[0].get("edits", [])) if pl else (ts[0].get("stderr") or "")[:80]))
    if ns.markdown:
        print("| program | plausible | correct | median s | median evaluations | first fix |")
        print("|---|---|---|---|---|---|")
        for r in rows:
            print("| %s | %d/%d | %d/%d | %.2f | %.0f | %s |" % (r[0], r[1], r[3], r[2], r[3], r[4], r[5], r[6].replace("|", "\\|")))
    else:
        print("%-16s %9s %9s %9s %9s  %s" % ("program", "plausible", "correct", "median s", "med evals", "first fix"))
        for r in rows:
            print("%-16s %6d/%-2d %6d/%-2d %9.2f %9.0f  %s" % (r[0], r[1], r[3], r[2], r[3], r[4], r[5], r[6][:90]))
    bugs_pl = sum(1 for r in rows if r[1] > 0)
    bugs_co = sum(1 for r in rows if r[2] > 0)
    n_pl = sum(r[1] for r in rows)
    n_co = sum(r[2] for r in rows)
    n = sum(r[3] for r in rows)
    evals = sum(t.get("evaluations", 0) for t in trials)
    secs = sum(t.get("search_seconds", 0) for t in trials)
    overfit = sum(1 for t in trials if t["plausible"] and t["correct"] is False)
    print("\n%d programs: %d repaired plausibly, %d correctly (by at least one seed); trials: %d/%d plausible (%d suspect), %d/%d correct, "
          "%d overfitting fixes printed; "
          "%d evaluations in %.1f s of search (%.0f/s)"
          % (len(rows), bugs_pl, bugs_co, n_pl, n, sum(1 for t in trials if t.get("suspect")), n_co, n, overfit, evals, secs,
             evals / secs if secs else 0))
    # The overfitting guard: of the plausible patches the runs reported
    # (the first is the one delivered; the guard ranks the others below
    # it), how many it flagged as suspect, and whether a correct one was
    # ranked below an overfitting one.
    fixes = [(g, c) for t in trials for g, c in zip(t.get("guard") or [], t.get("fixes_correct") or [])]
    if any(g for g, _ in fixes):
        flagged = [(g, c) for g, c in fixes if g and g.get("broken", 0) > 0]
        below = sum(1 for t in trials if t.get("fixes_correct") and t["fixes_correct"][0] is False and any(t["fixes_correct"][1:]))
        print("guard: %d plausible patches reported, %d overfitting; %d flagged suspect (%d overfitting, %d correct); "
              "%d trials ranked an overfitting patch above a correct one"
              % (len(fixes), sum(1 for _, c in fixes if c is False), len(flagged),
                 sum(1 for _, c in flagged if c is False), sum(1 for _, c in flagged if c), below))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="benchmark folders or bug names (default: ../shared/bench)")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--repair", action="append",
                    help="a repair binary, or LABEL=PATH; repeat to compare binaries in one run, "
                         "their trials interleaved (default bin/repair)")
    ap.add_argument("--time-budget", default="60s")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json", help="write every trial to this file")
    # Everything after a bare -- goes to repair as it is (argparse would
    # take it for positional names).
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    ns = ap.parse_args(argv)
    dirs = [n for n in ns.names if os.path.isdir(n)]
    names = [n for n in ns.names if not os.path.isdir(n)]
    if not dirs:
        dirs = [os.path.join(ROOT, "..", "shared", "bench")]
    bugs = find_bugs(dirs, set(names))
    if not bugs:
        sys.exit("no benchmark folders found")
    bins = []
    for r in ns.repair or [os.path.join(ROOT, "bin", "repair")]:
        label, _, path = r.partition("=")
        if not path:
            label, path = r, r
        if not os.path.exists(path):
            sys.exit("%s not found: build it with: go build -o bin/repair ./cmd/repair" % path)
        bins.append((label, path))
    trials = []
    t0 = time.monotonic()
    for bug in bugs:
        for s in range(ns.first_seed, ns.first_seed + ns.seeds):
            for label, path in bins:  # interleaved: the machine's load hits every binary alike
                t = run_trial(path, bug, s, ns.time_budget, extra)
                t["binary"] = label
                trials.append(t)
        for label, _ in bins:
            ts = [t for t in trials if t["bug"] == bug[0] and t["binary"] == label]
            pl = [t for t in ts if t["plausible"]]
            co = [t for t in ts if t["correct"] or (t["correct"] is None and t["plausible"])]
            print("%-16s %s plausible %2d/%d correct %2d/%d" % (bug[0], label if len(bins) > 1 else "", len(pl), len(ts), len(co), len(ts)),
                  file=sys.stderr)
    for label, _ in bins:
        if len(bins) > 1:
            print("\n## %s\n" % label)
        report(ns, [t for t in trials if t["binary"] == label])
    print("\n%.0fs in all" % (time.monotonic() - t0))
    if ns.json:
        with open(ns.json, "w") as f:
            json.dump(trials, f, indent=1)


if __name__ == "__main__":
    main()
