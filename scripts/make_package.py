#!/usr/bin/env python3
"""Generates the inputs of repair's start-up benchmark: a large package and
what stresses a start (the harness's liveness while it imports, collects
and loads; the bytecode the candidates read).

    python3 scripts/make_package.py OUT [--modules 600] [--tests 40]
            [--huge-tests 100000] [--big-arg-mb 250]

OUT/ receives:

  pytest.ini, bigpkg/__init__.py   a package whose __init__ imports every
  bigpkg/mod_NNNN.py               one of MODULES modules (each a few
                                   hundred lines of functions: importing
                                   them all without bytecode costs about a
                                   millisecond of CPU each)
  bigpkg/utils.py                  the target: clamp() has a bug (it
                                   returns hi where it should return lo)
  tests/test_utils.py              TESTS pytest tests of utils, a fifth of
                                   which fail on the bug
  suite.json                       the same tests of clamp as a JSON suite
                                   (each case imports the package afresh)
  huge/utils.py,                   with --huge-tests: the same target and a
  huge/test_utils.py               pytest file of HUGE_TESTS tests
  big/utils.py, big/suite.json     with --big-arg-mb: the same target and a
                                   JSON suite whose first case's argument
                                   is a string of BIG_ARG_MB megabytes

Then, from OUT:

    repair run --target bigpkg/utils.py --tests tests/test_utils.py
    repair run --target bigpkg/utils.py --tests suite.json
    repair run --target huge/utils.py --tests huge/test_utils.py
    repair run --target big/utils.py --tests big/suite.json
"""
import argparse
import json
import os

TARGET = '''"""Small helpers of the package."""


def clamp(x, lo, hi):
    """x brought into [lo, hi]."""
    if x < lo:
        return hi
    if x > hi:
        return hi
    return x


def size(s):
    """The length of s."""
    return len(s)
'''


def module_source(i, funcs=40):
    """A module of funcs small functions and a class: about 300 lines."""
    out = ['"""Generated module %d of the start-up benchmark."""' % i, "import math", ""]
    for j in range(funcs):
        out += [
            "",
            "def f%d_%d(x, y=%d):" % (i, j, j),
            '    """Function %d of module %d."""' % (j, i),
            "    total = 0",
            "    for k in range(x):",
            "        if k %% %d == 0:" % (j + 2),
            "            total += k * y",
            "        elif k > y:",
            "            total -= math.floor(k / (y + 1))",
            "    return {'x': x, 'y': y, 'total': total, 'name': 'f%d_%d'}" % (i, j),
        ]
    out += [
        "",
        "",
        "class Thing%d:" % i,
        "    def __init__(self, a, b):",
        "        self.a, self.b = a, b",
        "",
        "    def __repr__(self):",
        "        return 'Thing%d(%%r, %%r)' %% (self.a, self.b)" % i,
        "",
    ]
    return "\n".join(out)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_package(out, modules, tests):
    pkg = os.path.join(out, "bigpkg")
    names = ["mod_%04d" % i for i in range(modules)]
    for i, name in enumerate(names):
        write(os.path.join(pkg, name + ".py"), module_source(i))
    init = ['"""A package of %d modules, all imported here."""' % modules]
    init += ["from . import %s  # noqa: F401" % n for n in names]
    init += ["from . import utils  # noqa: F401", ""]
    write(os.path.join(pkg, "__init__.py"), "\n".join(init))
    write(os.path.join(pkg, "utils.py"), TARGET)
    write(os.path.join(out, "pytest.ini"), "[pytest]\ntestpaths = tests\n")
    write(os.path.join(out, "tests", "test_utils.py"), test_file("from bigpkg.utils import clamp, size", tests))
    cases = []
    for i in range(tests):
        if i % 5 == 0:
            cases.append({"args": [-i - 1, 0, i + 10], "expected": 0})
        else:
            cases.append({"args": [i, 0, i + 1], "expected": i})
    with open(os.path.join(out, "suite.json"), "w") as f:
        json.dump({"target": "bigpkg/utils.py", "function": "clamp", "tests": cases}, f, indent=1)


def test_file(imp, n):
    """n tests of clamp and size; every fifth one fails on clamp's bug."""
    out = [imp, ""]
    for i in range(n):
        if i % 5 == 0:
            out += ["", "def test_below_%d():" % i, "    assert clamp(%d, %d, %d) == %d" % (-i - 1, 0, i + 10, 0)]
        elif i % 5 == 1:
            out += ["", "def test_size_%d():" % i, "    assert size('x' * %d) == %d" % (i, i)]
        else:
            out += ["", "def test_inside_%d():" % i, "    assert clamp(%d, 0, %d) == %d" % (i, i + 1, i)]
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--modules", type=int, default=600)
    ap.add_argument("--tests", type=int, default=40)
    ap.add_argument("--huge-tests", type=int, default=0)
    ap.add_argument("--big-arg-mb", type=int, default=0)
    a = ap.parse_args()
    if a.modules < 1 or a.tests < 5:
        ap.error("--modules must be at least 1 and --tests at least 5")
    make_package(a.out, a.modules, a.tests)
    if a.huge_tests:
        write(os.path.join(a.out, "huge", "utils.py"), TARGET)
        write(os.path.join(a.out, "huge", "test_utils.py"), test_file("from utils import clamp, size", a.huge_tests))
    if a.big_arg_mb:
        write(os.path.join(a.out, "big", "utils.py"), TARGET)
        big = "x" * (a.big_arg_mb << 20)
        cases = [{"function": "size", "args": [big], "expected": len(big)}]
        cases += [{"args": [-i - 1, 0, 10], "expected": 0} for i in range(3)]
        cases += [{"args": [i, 0, 10], "expected": i} for i in range(5)]
        with open(os.path.join(a.out, "big", "suite.json"), "w") as f:
            json.dump({"target": "utils.py", "function": "clamp", "tests": cases}, f)


if __name__ == "__main__":
    main()
