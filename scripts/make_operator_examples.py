#!/usr/bin/env python3
"""Write examples/operators: one small bug per mutation operator that
composes new text (issue: repair power), each with reference.py and a
suite computed from the reference on fixed inputs.

    python3 scripts/make_operator_examples.py

Deterministic: the inputs come from a seeded random.Random. The suites
hold many cases next to each other so that only a fix that generalises
passes (the search keeps whatever makes the tests pass).
"""

import copy
import json
import os
import random
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "examples", "operators")

R = random.Random(15)


def ints(n, lo=-9, hi=9):
    return [R.randint(lo, hi) for _ in range(n)]


def words(n):
    pool = ["apple", "fig", "kiwi", "banana", "plum", "cherry", "date", "lime", "melon", "pear"]
    return [R.choice(pool) for _ in range(n)]


EXAMPLES = [
    # name, function, operator, buggy body, fixed body, inputs
    ("drain", "drain", "cond-name: while True into while queue",
     '''
def drain(queue):
    """Pop every item off the end of queue; return them in the order popped."""
    out = []
    while True:
        out.append(queue.pop())
    return out
''', '''
def drain(queue):
    """Pop every item off the end of queue; return them in the order popped."""
    out = []
    while queue:
        out.append(queue.pop())
    return out
''', [[ints(k)] for k in range(0, 8)] + [[ints(R.randint(1, 9))] for _ in range(8)]),

    ("change_ways", "change_ways", "cond-name: extend a condition with `or not coins`",
     '''
def change_ways(amount, coins):
    """In how many ways coins (each usable any number of times) make amount."""
    if amount == 0:
        return 1
    if amount < 0:
        return 0
    return change_ways(amount - coins[0], coins) + change_ways(amount, coins[1:])
''', '''
def change_ways(amount, coins):
    """In how many ways coins (each usable any number of times) make amount."""
    if amount == 0:
        return 1
    if amount < 0 or not coins:
        return 0
    return change_ways(amount - coins[0], coins) + change_ways(amount, coins[1:])
''', [[a, c] for a in (0, 1, 3, 4, 5, 7, 10) for c in ([1], [1, 2], [2, 5], [1, 2, 5], [3])]),

    ("spread", "spread", "sibling: max into min",
     '''
def spread(xs):
    """The difference between the largest and the smallest value of xs."""
    return max(xs) - max(xs)
''', '''
def spread(xs):
    """The difference between the largest and the smallest value of xs."""
    return max(xs) - min(xs)
''', [[ints(R.randint(1, 7))] for _ in range(16)]),

    ("flatten", "flatten", "sibling: append into extend",
     '''
def flatten(rows):
    """The items of the rows, one list, in order."""
    out = []
    for row in rows:
        out.append(row)
    return out
''', '''
def flatten(rows):
    """The items of the rows, one list, in order."""
    out = []
    for row in rows:
        out.extend(row)
    return out
''', [[[ints(R.randint(0, 3)) for _ in range(R.randint(0, 4))]] for _ in range(16)]),

    ("remaining", "remaining", "wrap: x into max(0, x)",
     '''
def remaining(budget, spent):
    """What is left of the budget, never below zero."""
    return budget - spent
''', '''
def remaining(budget, spent):
    """What is left of the budget, never below zero."""
    return max(0, budget - spent)
''', [[R.randint(0, 20), R.randint(0, 20)] for _ in range(20)]),

    ("distance", "distance", "wrap: x into abs(x)",
     '''
def distance(a, b):
    """How far apart a and b are on the number line."""
    d = a - b
    return d
''', '''
def distance(a, b):
    """How far apart a and b are on the number line."""
    d = abs(a - b)
    return d
''', [[R.randint(-20, 20), R.randint(-20, 20)] for _ in range(20)]),

    ("count_long", "count_long", "wrap: w into len(w)",
     '''
def count_long(ws, n):
    """How many of the words ws have more than n letters."""
    return sum(1 for w in ws if w > n)
''', '''
def count_long(ws, n):
    """How many of the words ws have more than n letters."""
    return sum(1 for w in ws if len(w) > n)
''', [[words(R.randint(0, 6)), R.randint(2, 6)] for _ in range(16)]),

    ("first_positive", "first_positive", "swap-operands: a and b into b and a",
     '''
def first_positive(xs):
    """The index of the first positive number of xs, or len(xs)."""
    i = 0
    while xs[i] <= 0 and i < len(xs):
        i += 1
    return i
''', '''
def first_positive(xs):
    """The index of the first positive number of xs, or len(xs)."""
    i = 0
    while i < len(xs) and xs[i] <= 0:
        i += 1
    return i
''', [[ints(R.randint(0, 6), -9, 3)] for _ in range(20)]),

    ("countdown", "countdown", "add-term: k into n - k",
     '''
def countdown(n, k):
    """The k-th number (from 0) of the countdown n, n - 1, ..., 1."""
    return k
''', '''
def countdown(n, k):
    """The k-th number (from 0) of the countdown n, n - 1, ..., 1."""
    return n - k
''', [[n, k] for n in (1, 3, 5, 8) for k in range(0, n, max(1, n // 3))]),

    ("diffs", "diffs", "slice: xs into xs[1:]",
     '''
def diffs(xs):
    """The differences between neighbours: [xs[1] - xs[0], xs[2] - xs[1], ...]."""
    return [b - a for a, b in zip(xs, xs)]
''', '''
def diffs(xs):
    """The differences between neighbours: [xs[1] - xs[0], xs[2] - xs[1], ...]."""
    return [b - a for a, b in zip(xs, xs[1:])]
''', [[ints(R.randint(0, 7))] for _ in range(16)]),

    ("transpose", "transpose", "slice: m[j][i] into m[i][j]",
     '''
def transpose(m):
    """The transpose of the matrix m (a non-empty list of equal rows)."""
    return [[m[j][i] for i in range(len(m))] for j in range(len(m[0]))]
''', '''
def transpose(m):
    """The transpose of the matrix m (a non-empty list of equal rows)."""
    return [[m[i][j] for i in range(len(m))] for j in range(len(m[0]))]
''', [[[ints(c) for _ in range(r)]] for r, c in ((1, 1), (2, 2), (3, 3), (1, 3), (3, 1), (2, 3), (3, 2), (4, 2), (2, 4), (4, 4))]),

    ("most_common", "most_common", "attr: xs.index(x) into xs.count(x)",
     '''
def most_common(xs):
    """The element of xs that occurs most often (the first such one)."""
    best = xs[0]
    for x in xs:
        if xs.index(x) > xs.count(best):
            best = x
    return best
''', '''
def most_common(xs):
    """The element of xs that occurs most often (the first such one)."""
    best = xs[0]
    for x in xs:
        if xs.count(x) > xs.count(best):
            best = x
    return best
''', [[ints(R.randint(1, 8), 0, 4)] for _ in range(20)]),

    ("count_runs", "count_runs", "assign: insert prev = x",
     '''
def count_runs(xs):
    """The number of maximal runs of equal neighbours in xs."""
    runs = 0
    prev = None
    for x in xs:
        if x != prev:
            runs += 1
    return runs
''', '''
def count_runs(xs):
    """The number of maximal runs of equal neighbours in xs."""
    runs = 0
    prev = None
    for x in xs:
        if x != prev:
            runs += 1
        prev = x
    return runs
''', [[ints(R.randint(0, 8), 0, 2)] for _ in range(20)]),

    ("balanced", "balanced", "refine: insert a copy of depth += 1, then make it depth -= 1",
     '''
def balanced(s):
    """Whether the parentheses of s are balanced."""
    depth = 0
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return False
    return depth == 0
''', '''
def balanced(s):
    """Whether the parentheses of s are balanced."""
    depth = 0
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return False
            depth -= 1
    return depth == 0
''', [[s] for s in ("", "()", "(", ")", "(())", "()()", "(()", "())", ")(", "((()))", "(()())", "a(b)c",
                    "((", "))", "(a))(", "(()))", "((())", "x", "()(())", "(((())))")]),

    # The operators of developers' edits (issue 28), appended so that the
    # inputs above stay what they were.
    ("query_pairs", "query_pairs", "string-char: [^;] into [^&;]",
     '''
import re


def query_pairs(query):
    """The name=value pairs of a query string, separated by & or ;."""
    return dict(re.findall(r"([^&;=]+)=([^;]*)", query))
''', '''
import re


def query_pairs(query):
    """The name=value pairs of a query string, separated by & or ;."""
    return dict(re.findall(r"([^&;=]+)=([^&;]*)", query))
''', [[R.choice("&;").join("%s=%s" % (R.choice("abcxyz"), R.choice(["1", "22", "", "v", "q9", "a-b", "x.y", "%20", "1+2", "@"]))
                            for _ in range(R.randint(1, 4)))] for _ in range(20)]),

    ("circle_area", "circle_area", "module-const: 3.14159 into math.pi",
     '''
import math


def circle_area(r):
    """The area of a circle of radius r."""
    return 3.14159 * r * r
''', '''
import math


def circle_area(r):
    """The area of a circle of radius r."""
    return math.pi * r * r
''', [[R.choice([0, 1, 2, 3, 5, 10, 0.5, 2.5, 7])] for _ in range(12)]),

    ("bracket", "bracket", "similar-name: left_user into left",
     '''
def bracket(text, left, right, left_user, right_user):
    """text between brackets: the user's when given, else left and right."""
    if left_user is not None:
        left = left_user
    if right_user is not None:
        right = right_user
    return left_user + text + right
''', '''
def bracket(text, left, right, left_user, right_user):
    """text between brackets: the user's when given, else left and right."""
    if left_user is not None:
        left = left_user
    if right_user is not None:
        right = right_user
    return left + text + right
''', [[R.choice(["a", "word", ""]), l, r, R.choice([None, "<<", "{"]), R.choice([None, ">>", "}"])]
        for l, r in (("[", "]"), ("(", ")"), ("<", ">")) for _ in range(6)]),

    ("frame", "frame", "rename: mark into mark_user at both uses",
     '''
def frame(text, mark, mark_user):
    """text between two marks: the user's mark when given, else mark."""
    if mark_user is None:
        mark_user = mark
    return mark + text + mark
''', '''
def frame(text, mark, mark_user):
    """text between two marks: the user's mark when given, else mark."""
    if mark_user is None:
        mark_user = mark
    return mark_user + text + mark_user
''', [[R.choice(["a", "word", ""]), R.choice(["*", "|", "-"]), R.choice([None, "#", "~~", "+"])] for _ in range(20)]),

    ("check_all", "check_all", "add-call: not cmp into not cmp(a, b)",
     '''
import operator

OPS = {"<": operator.lt, "<=": operator.le, "==": operator.eq, ">": operator.gt}


def check_all(pairs, op, negate):
    """For each pair (a, b) whether a op b holds (fails, when negate)."""
    cmp = OPS[op]
    if negate:
        test = lambda a, b: not cmp
    else:
        test = cmp
    return [test(a, b) for a, b in pairs]
''', '''
import operator

OPS = {"<": operator.lt, "<=": operator.le, "==": operator.eq, ">": operator.gt}


def check_all(pairs, op, negate):
    """For each pair (a, b) whether a op b holds (fails, when negate)."""
    cmp = OPS[op]
    if negate:
        test = lambda a, b: not cmp(a, b)
    else:
        test = cmp
    return [test(a, b) for a, b in pairs]
''', [[[ints(2, 0, 3) for _ in range(R.randint(1, 4))], op, neg] for op in ("<", "<=", "==", ">") for neg in (True, False, True)]),

    ("intersection", "intersection", "guard: if e1 == e2: around ret.add(e1)",
     '''
def intersection(s1, s2):
    """The items that are in both s1 and s2, sorted."""
    ret = set()
    for e1 in s1:
        for e2 in s2:
            ret.add(e1)
    return sorted(ret)
''', '''
def intersection(s1, s2):
    """The items that are in both s1 and s2, sorted."""
    ret = set()
    for e1 in s1:
        for e2 in s2:
            if e1 == e2:
                ret.add(e1)
    return sorted(ret)
''', [[ints(R.randint(0, 5), 0, 6), ints(R.randint(0, 5), 0, 6)] for _ in range(20)]),

    ("mean_length", "mean_length", "early-exit: if w is None: continue",
     '''
def mean_length(words):
    """The mean length of the words that are not None (0 if there is none)."""
    total = count = 0
    for w in words:
        total += len(w)
        count += 1
    return total / count if count else 0
''', '''
def mean_length(words):
    """The mean length of the words that are not None (0 if there is none)."""
    total = count = 0
    for w in words:
        if w is None:
            continue
        total += len(w)
        count += 1
    return total / count if count else 0
''', [[[R.choice([None, "a", "fig", "banana", "", "kiwi"]) for _ in range(R.randint(0, 6))]] for _ in range(20)]),

    ("ratio", "ratio", "cond-expr: part / whole into part / whole if whole else default",
     '''
def ratio(part, whole, default):
    """part / whole, or default when whole is 0."""
    return part / whole
''', '''
def ratio(part, whole, default):
    """part / whole, or default when whole is 0."""
    return part / whole if whole else default
''', [[R.randint(0, 9), R.choice([0, 0, 1, 2, 4, 5]), R.choice([0, -1, None, 1])] for _ in range(20)]),
]


def main():
    for name, func, what, bug, ref, inputs in EXAMPLES:
        d = os.path.join(OUT, name)
        os.makedirs(d, exist_ok=True)
        bug, ref = textwrap.dedent(bug).lstrip(), textwrap.dedent(ref).lstrip()
        with open(os.path.join(d, name + ".py"), "w") as f:
            f.write(bug)
        with open(os.path.join(d, "reference.py"), "w") as f:
            f.write(ref)
        ns = {}
        exec(compile(ref, "reference.py", "exec"), ns)
        tests, seen = [], set()
        for args in inputs:
            key = json.dumps(args)
            if key in seen:
                continue
            seen.add(key)
            got = ns[func](*copy.deepcopy(args))
            tests.append({"name": "%s %d" % (func, len(tests) + 1), "args": args, "expected": got})
        suite = {"target": name + ".py", "function": func, "tests": tests}
        with open(os.path.join(d, "tests.json"), "w") as f:
            f.write("{\n")
            f.write('  "target": %s,\n  "function": %s,\n' % (json.dumps(suite["target"]), json.dumps(func)))
            f.write('  "tests": [\n')
            f.write(",\n".join("    " + json.dumps(t) for t in tests))
            f.write("\n  ]\n}\n")
        print("%-16s %3d cases  %s" % (name, len(tests), what))


if __name__ == "__main__":
    main()
