"""Reference implementation, in Python, of fitness.Equal and
fitness.EqualStdout (see ../equal.go). The sandbox harness must compare
values and standard output exactly like this; equal.json and stdout.json
are the shared test vectors, checked against this file by
TestComparePythonReference and against the Go code by TestEqualVectors.

    python3 compare_ref.py equal.json stdout.json   # exit 1 on a mismatch
"""
import json
import math
import re
import sys

sys.set_int_max_str_digits(0) if hasattr(sys, "set_int_max_str_digits") else None


def to_float(x):
    try:
        return float(x)
    except OverflowError:  # an int beyond float range
        return math.inf if x > 0 else -math.inf


def floats_equal(a, b, tol):
    if not tol > 0:
        tol = 0.0
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


def equal(e, a, tol):
    if isinstance(e, bool) or isinstance(a, bool):
        return isinstance(e, bool) and isinstance(a, bool) and e == a
    if e is None or a is None:
        return e is None and a is None
    if isinstance(e, (int, float)) and isinstance(a, (int, float)):
        if isinstance(e, int) and isinstance(a, int):
            return e == a
        return floats_equal(to_float(e), to_float(a), tol)
    if isinstance(e, str) or isinstance(a, str):
        return isinstance(e, str) and isinstance(a, str) and e == a
    if isinstance(e, (list, tuple)) and isinstance(a, (list, tuple)):
        return len(e) == len(a) and all(equal(x, y, tol) for x, y in zip(e, a))
    if isinstance(e, dict) and isinstance(a, dict):
        return e.keys() == a.keys() and all(equal(e[k], a[k], tol) for k in e)
    return False


NUMBER = re.compile(r"[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)", re.I | re.A)
INTEGER = re.compile(r"[+-]?\d+", re.A)


def stdout_lines(s):
    lines = [line.rstrip() for line in s.split("\n")]
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def tokens_equal(x, y, tol):
    if NUMBER.fullmatch(x) and NUMBER.fullmatch(y):
        if INTEGER.fullmatch(x) and INTEGER.fullmatch(y):
            return int(x) == int(y)
        return floats_equal(float(x), float(y), tol)
    return x == y


def equal_stdout(expected, actual, tol):
    e, a = stdout_lines(expected), stdout_lines(actual)
    if len(e) != len(a):
        return False
    for le, la in zip(e, a):
        te, ta = le.split(), la.split()
        if len(te) != len(ta) or not all(tokens_equal(x, y, tol) for x, y in zip(te, ta)):
            return False
    return True


def main(equal_file, stdout_file):
    bad = 0
    for fn, path in ((equal, equal_file), (equal_stdout, stdout_file)):
        with open(path, encoding="utf-8") as f:
            for v in json.load(f):
                got = fn(v["expected"], v["actual"], v["tolerance"])
                if got != v["equal"]:
                    bad += 1
                    print(f"{path}: {v['why']}: got {got}, want {v['equal']}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
