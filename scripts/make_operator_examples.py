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

    ("host_of", "host_of", "regex: a class gains a character, [^?#]+ into [^/?#]+",
     """
import re


def host_of(url):
    \"\"\"The host of an absolute URL (scheme://host/path?query#fragment), or None.\"\"\"
    m = re.match(r"^[a-z]+://([^?#]+)", url)
    return m.group(1) if m else None
""", """
import re


def host_of(url):
    \"\"\"The host of an absolute URL (scheme://host/path?query#fragment), or None.\"\"\"
    m = re.match(r"^[a-z]+://([^/?#]+)", url)
    return m.group(1) if m else None
""", [[R.choice(["http", "https", "ftp", "", "HTTP"]) + "://" + R.choice(["a.org", "x.y.com", "h:80", "me@h.io", ""])
       + R.choice(["", "/", "/p", "/a/b", "?q=1", "#f", "/p?q#f"])] for _ in range(24)]),

    ("get_option", "get_option", "raise-guard: if not value: raise ConfigError(...)",
     """
class ConfigError(Exception):
    pass


def get_option(options, name):
    \"\"\"The stripped value of option name; ConfigError when it is missing or empty.\"\"\"
    if name not in options:
        raise ConfigError("missing option")
    value = options[name]
    return value.strip()
""", """
class ConfigError(Exception):
    pass


def get_option(options, name):
    \"\"\"The stripped value of option name; ConfigError when it is missing or empty.\"\"\"
    if name not in options:
        raise ConfigError("missing option")
    value = options[name]
    if not value: raise ConfigError("missing option")
    return value.strip()
""", [[{"a": ""}, "a"], [{"a": "x", "b": ""}, "b"], [{"c": ""}, "c"]] +
    [[{k: R.choice(["", " x ", "on", "  ", "a b"]) for k in R.sample("abc", R.randint(0, 3))}, R.choice("abc")]
     for _ in range(24)]),

    ("decode_name", "decode_name", "try-except: except UnicodeError: raise DecodeError(...)",
     """
class DecodeError(Exception):
    pass


def decode_name(data):
    \"\"\"The ASCII text of a list of byte values, stripped; DecodeError when empty or not ASCII.\"\"\"
    if not data:
        raise DecodeError("empty")
    text = bytes(data).decode("ascii")
    return text.strip()
""", """
class DecodeError(Exception):
    pass


def decode_name(data):
    \"\"\"The ASCII text of a list of byte values, stripped; DecodeError when empty or not ASCII.\"\"\"
    if not data:
        raise DecodeError("empty")
    try:
        text = bytes(data).decode("ascii")
    except UnicodeError as exc:
        raise DecodeError(str(exc)) from exc
    return text.strip()
""", [[[R.choice([32, 65, 97, 122, 48, 200, 255, 128]) for _ in range(R.randint(0, 5))]] for _ in range(24)]),

    ("meter", "meter", "rename-alike: l_bar and r_bar into l_bar_user and r_bar_user",
     """
def meter(n, total, l_bar, r_bar, l_bar_user=None, r_bar_user=None):
    \"\"\"A progress text: the left and right parts (the user's when given) formatted with n and total.\"\"\"
    if l_bar_user is None:
        l_bar_user = l_bar
    if r_bar_user is None:
        r_bar_user = r_bar
    l_bar, r_bar = l_bar.format(n=n, total=total), r_bar.format(n=n, total=total)
    return l_bar + "|" + r_bar
""", """
def meter(n, total, l_bar, r_bar, l_bar_user=None, r_bar_user=None):
    \"\"\"A progress text: the left and right parts (the user's when given) formatted with n and total.\"\"\"
    if l_bar_user is None:
        l_bar_user = l_bar
    if r_bar_user is None:
        r_bar_user = r_bar
    l_bar, r_bar = l_bar_user.format(n=n, total=total), r_bar_user.format(n=n, total=total)
    return l_bar + "|" + r_bar
""", [[R.randint(0, 9), 9, R.choice(["{n}", "n={n}", "-"]), R.choice(["{total}", "of {total}", "."]),
       R.choice([None, "<{n}", "L"]), R.choice([None, "{total}>", "R"])] for _ in range(24)]),

    ("pad_all", "pad_all", "add-arg: pad(w, width) into pad(w, width, fill)",
     """
def pad(s, width, fill=" "):
    return s + fill * (width - len(s))


def pad_all(words, width, fill):
    \"\"\"Every word padded on the right with fill up to width.\"\"\"
    return [pad(w, width) for w in words]
""", """
def pad(s, width, fill=" "):
    return s + fill * (width - len(s))


def pad_all(words, width, fill):
    \"\"\"Every word padded on the right with fill up to width.\"\"\"
    return [pad(w, width, fill) for w in words]
""", [[words(R.randint(0, 4)), R.randint(3, 8), R.choice([".", "-", " ", "*"])] for _ in range(20)]),

    ("json_literal", "json_literal", "domain-string: \"None\" into \"null\"",
     """
def json_literal(v):
    \"\"\"The JSON text of a scalar: null, true, false, a number or a quoted string.\"\"\"
    if v is None:
        return "None"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return '"' + v + '"'
    return str(v)
""", """
def json_literal(v):
    \"\"\"The JSON text of a scalar: null, true, false, a number or a quoted string.\"\"\"
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return '"' + v + '"'
    return str(v)
""", [[None], [True], [False]] + [[R.choice([None, True, False, 0, 1, 2.5, "a", "", "x y", -3])] for _ in range(20)]),

    ("money", "money", "type-self: Money(...) into type(self)(...)",
     """
class Money:
    def __init__(self, cents):
        self.cents = cents

    def plus(self, cents):
        return Money(self.cents + cents)


class Euro(Money):
    pass


def money(cents, extra, euro):
    \"\"\"The kind and cents of Money(cents), or Euro(cents) when euro, plus extra.\"\"\"
    m = (Euro if euro else Money)(cents).plus(extra)
    return type(m).__name__ + " " + str(m.cents)
""", """
class Money:
    def __init__(self, cents):
        self.cents = cents

    def plus(self, cents):
        return type(self)(self.cents + cents)


class Euro(Money):
    pass


def money(cents, extra, euro):
    \"\"\"The kind and cents of Money(cents), or Euro(cents) when euro, plus extra.\"\"\"
    m = (Euro if euro else Money)(cents).plus(extra)
    return type(m).__name__ + " " + str(m.cents)
""", [[R.randint(0, 500), R.randint(-50, 50), R.choice([True, False])] for _ in range(16)]),

    ("number_sum", "number_sum", "type-tuple: isinstance(v, int) into isinstance(v, (int, float))",
     """
def number_sum(values):
    \"\"\"The sum of the numbers among values: ints and floats, not bools nor strings.\"\"\"
    s = 0
    for v in values:
        if isinstance(v, int) and not isinstance(v, bool):
            s += v
    return s
""", """
def number_sum(values):
    \"\"\"The sum of the numbers among values: ints and floats, not bools nor strings.\"\"\"
    s = 0
    for v in values:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            s += v
    return s
""", [[[R.choice([1, 2, -3, 0.5, 2.25, True, False, "4", None]) for _ in range(R.randint(0, 5))]] for _ in range(20)]),

    ("charge", "charge", "cond-expr: price - member_price into member_price if member else price (the value's operands)",
     """
def charge(price, member_price, member):
    \"\"\"What a customer pays: the member price for members, else the price.\"\"\"
    due = price - member_price
    return round(due, 2)
""", """
def charge(price, member_price, member):
    \"\"\"What a customer pays: the member price for members, else the price.\"\"\"
    due = member_price if member else price
    return round(due, 2)
""", [[R.choice([10, 12.345, 99.999, 0, 3.5]), R.choice([8.125, 9.999, 2.5, 0, 7.777]), R.choice([True, False])] for _ in range(20)]),
    ("read_port", "read_port", "raise-call: self.error(...) into raise self.error(...)",
     """
class ConfigError(Exception):
    pass


class Reader:
    def error(self, msg):
        return ConfigError(msg)

    def port(self, text):
        \"\"\"The port number in text; ConfigError unless it is 1 to 65535.\"\"\"
        n = int(text)
        if not 0 < n < 65536:
            self.error("port out of range")
        return n


def read_port(text):
    return Reader().port(text)
""", """
class ConfigError(Exception):
    pass


class Reader:
    def error(self, msg):
        return ConfigError(msg)

    def port(self, text):
        \"\"\"The port number in text; ConfigError unless it is 1 to 65535.\"\"\"
        n = int(text)
        if not 0 < n < 65536:
            raise self.error("port out of range")
        return n


def read_port(text):
    return Reader().port(text)
""", [[str(R.choice([0, 1, 80, 443, 65535, 65536, -1, 70000, 8080]))] for _ in range(24)]),
    ("has_alias", "has_alias", "same-call: w == \"AS\" into w.upper() == \"AS\", as the file compares \"FROM\"",
     """
def has_alias(words):
    \"\"\"Whether a FROM comes before an AS, the keywords in any case.\"\"\"
    seen_from = False
    for w in words:
        if w.upper() == "FROM":
            seen_from = True
        if w == "AS":
            return seen_from
    return False
""", """
def has_alias(words):
    \"\"\"Whether a FROM comes before an AS, the keywords in any case.\"\"\"
    seen_from = False
    for w in words:
        if w.upper() == "FROM":
            seen_from = True
        if w.upper() == "AS":
            return seen_from
    return False
""", [[[R.choice(["from", "FROM", "as", "AS", "As", "t", "x", "From"]) for _ in range(R.randint(0, 5))]] for _ in range(30)]),
    ("block_depth", "block_depth", "add-entry: (\"IF\", \"FOR\", \"WHILE\") gains \"CASE\"",
     """
KEYWORDS = ("SELECT", "CASE", "END", "IF", "FOR", "WHILE")


def block_depth(words):
    \"\"\"The nesting depth after the words: IF, FOR, WHILE and CASE open a
    block, END closes one; other words do not count.\"\"\"
    depth = 0
    for w in words:
        if w not in KEYWORDS:
            continue
        if w in ("IF", "FOR", "WHILE"):
            depth += 1
        elif w == "END":
            depth -= 1
    return depth
""", """
KEYWORDS = ("SELECT", "CASE", "END", "IF", "FOR", "WHILE")


def block_depth(words):
    \"\"\"The nesting depth after the words: IF, FOR, WHILE and CASE open a
    block, END closes one; other words do not count.\"\"\"
    depth = 0
    for w in words:
        if w not in KEYWORDS:
            continue
        if w in ("IF", "FOR", "WHILE", "CASE"):
            depth += 1
        elif w == "END":
            depth -= 1
    return depth
""", [[[R.choice(["IF", "CASE", "END", "SELECT", "x", "FOR", "WHILE"]) for _ in range(R.randint(0, 6))]] for _ in range(30)]),    ("tilde_upper", "tilde_upper", "attr-alike: v.next_patch() into v.next_minor()",
     """
class Version:
    def __init__(self, major, minor, patch):
        self.major, self.minor, self.patch = major, minor, patch

    def next_major(self):
        return Version(self.major + 1, 0, 0)

    def next_minor(self):
        return Version(self.major, self.minor + 1, 0)

    def next_patch(self):
        return Version(self.major, self.minor, self.patch + 1)

    def parts(self):
        return [self.major, self.minor, self.patch]


def tilde_upper(text):
    \"\"\"The version text names, its next patch release and the exclusive
    upper bound of ~text: ~1 is below 2.0.0, ~1.2 and ~1.2.3 below 1.3.0.\"\"\"
    nums = [int(x) for x in text.split(".")]
    v = Version(*(nums + [0, 0])[:3])
    release = v.next_patch().parts()
    if len(nums) == 1:
        return [v.parts(), release, v.next_major().parts()]
    return [v.parts(), release, v.next_patch().parts()]
""", """
class Version:
    def __init__(self, major, minor, patch):
        self.major, self.minor, self.patch = major, minor, patch

    def next_major(self):
        return Version(self.major + 1, 0, 0)

    def next_minor(self):
        return Version(self.major, self.minor + 1, 0)

    def next_patch(self):
        return Version(self.major, self.minor, self.patch + 1)

    def parts(self):
        return [self.major, self.minor, self.patch]


def tilde_upper(text):
    \"\"\"The version text names, its next patch release and the exclusive
    upper bound of ~text: ~1 is below 2.0.0, ~1.2 and ~1.2.3 below 1.3.0.\"\"\"
    nums = [int(x) for x in text.split(".")]
    v = Version(*(nums + [0, 0])[:3])
    release = v.next_patch().parts()
    if len(nums) == 1:
        return [v.parts(), release, v.next_major().parts()]
    return [v.parts(), release, v.next_minor().parts()]
""", [[R.choice(["1", "1.2", "1.2.3", "0.0.1", "2.9", "3.0.7", "10", "0.4"])] for _ in range(20)]),

    ("last_word", "last_word", "init-unbound: last = \"\" before the loop that binds it",
     """
def last_word(text):
    \"\"\"The last word of text, or "" when it has none.\"\"\"
    for word in text.split():
        last = word
    return last
""", """
def last_word(text):
    \"\"\"The last word of text, or "" when it has none.\"\"\"
    last = ""
    for word in text.split():
        last = word
    return last
""", [[""], ["   "]] + [[" ".join(words(R.randint(0, 4)))] for _ in range(20)]),

    ("leading_ints", "leading_ints", "stop-after: log.append(s) then break",
     """
def leading_ints(items):
    \"\"\"The ints the leading items parse as, up to the first that does not
    parse; that one goes to the log.\"\"\"
    out, log = [], []
    for s in items:
        try:
            out.append(int(s))
        except ValueError:
            log.append(s)
    return [out, log]
""", """
def leading_ints(items):
    \"\"\"The ints the leading items parse as, up to the first that does not
    parse; that one goes to the log.\"\"\"
    out, log = [], []
    for s in items:
        try:
            out.append(int(s))
        except ValueError:
            log.append(s)
            break
    return [out, log]
""", [[[R.choice(["1", "22", "-3", "x", "4", "five", "60", "7.5"]) for _ in range(R.randint(0, 6))]] for _ in range(24)]),

    ("label", "label", "use-local: normalise(name, width) into clean",
     """
def normalise(s, width):
    return s.strip()[:width].upper()


def label(name, width):
    \"\"\"name stripped, cut to width + 2 characters, upper-cased, between brackets.\"\"\"
    clean = normalise(name, width + 2)
    return "[" + normalise(name, width) + "]"
""", """
def normalise(s, width):
    return s.strip()[:width].upper()


def label(name, width):
    \"\"\"name stripped, cut to width + 2 characters, upper-cased, between brackets.\"\"\"
    clean = normalise(name, width + 2)
    return "[" + clean + "]"
""", [[R.choice(["", " ", "  "]) + R.choice(words(1)) + R.choice(["", " "]), R.randint(0, 7)] for _ in range(20)]),

    ("copied_path", "copied_path", "getattr-dunder: a __getattr__ refuses __setstate__",
     """
import copy


class Namespace:
    \"\"\"Attributes made up on first use: Namespace().a.b has the path a, b.\"\"\"

    def __init__(self, path=()):
        self.path = path

    def __getattr__(self, name):
        return Namespace(self.path + (name,))


def copied_path(names):
    \"\"\"The paths of the namespace that names reach and of its root, read
    on copies of them.\"\"\"
    root = ns = Namespace()
    for n in names:
        ns = getattr(ns, n)
    return [list(copy.copy(ns).path), list(copy.copy(root).path)]
""", """
import copy


class Namespace:
    \"\"\"Attributes made up on first use: Namespace().a.b has the path a, b.\"\"\"

    def __init__(self, path=()):
        self.path = path

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Namespace(self.path + (name,))


def copied_path(names):
    \"\"\"The paths of the namespace that names reach and of its root, read
    on copies of them.\"\"\"
    root = ns = Namespace()
    for n in names:
        ns = getattr(ns, n)
    return [list(copy.copy(ns).path), list(copy.copy(root).path)]
""", [[words(R.randint(0, 4))] for _ in range(16)]),

    ("split_once", "split_once", "yield-nonempty: yield list(it) only when not empty",
     """
def split_once(items, sep):
    \"\"\"items split after the first sep: the part through it, then the rest
    (no rest when nothing follows).\"\"\"
    return list(_split(items, sep))


def _split(items, sep):
    buf = []
    it = iter(items)
    for x in it:
        buf.append(x)
        if x == sep:
            yield buf
            yield list(it)
            return
    if buf:
        yield buf
""", """
def split_once(items, sep):
    \"\"\"items split after the first sep: the part through it, then the rest
    (no rest when nothing follows).\"\"\"
    return list(_split(items, sep))


def _split(items, sep):
    buf = []
    it = iter(items)
    for x in it:
        buf.append(x)
        if x == sep:
            yield buf
            buf = list(it)
            if buf:
                yield buf
            return
    if buf:
        yield buf
""", [[[R.choice(["a", "b", ",", "c"]) for _ in range(R.randint(0, 5))], ","] for _ in range(24)]),

    ("base_of", "base_of", "cond-name: a read of literal[0] guarded by len(literal) > 1",
     """
def base_of(literal):
    \"\"\"The base a C integer literal is written in: 16 after "0x", 8 after
    another leading 0 ("017"), else 10 ("0" alone is decimal).\"\"\"
    if literal[:2] == "0x":
        return 16
    if literal[0] == "0":
        return 8
    return 10
""", """
def base_of(literal):
    \"\"\"The base a C integer literal is written in: 16 after "0x", 8 after
    another leading 0 ("017"), else 10 ("0" alone is decimal).\"\"\"
    if literal[:2] == "0x":
        return 16
    if len(literal) > 1 and literal[0] == "0":
        return 8
    return 10
""", [[R.choice(["", "", "0", "0x", "1", "9"]) + "".join(R.choice("0178") for _ in range(R.randint(0, 3))) or "0"] for _ in range(30)]),
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
            try:
                got = ns[func](*copy.deepcopy(args))
            except Exception as exc:
                tests.append({"name": "%s %d" % (func, len(tests) + 1), "args": args, "raises": type(exc).__name__})
                continue
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
