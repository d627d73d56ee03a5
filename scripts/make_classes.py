"""Writes examples/classes: five exercises, each with reference.py, a JSON
suite (tests.json) and 20 submissions: 10 correct (five styles, each also
with other variable names) and 10 wrong (realistic mistakes, several of
which need code absent from the wrong file). The benchmark of donors
(scripts/donors_bench.py) runs on them. Run from the repository root:

    python3 scripts/make_classes.py
"""

import json
import os
import re
import shutil

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples")
OUT = os.path.join(ROOT, "classes")

RENAME = {"lst": "items", "xs": "values", "text": "sentence", "n": "limit", "score": "points",
          "out": "res", "result": "acc", "seen": "met", "counts": "tally", "distinct": "uniq",
          "word": "token", "w": "tok", "x": "v", "item": "elem", "i": "k", "s": "t", "u": "us",
          "d": "dd", "words": "toks", "first": "top", "second": "runner", "values": "vals",
          "res": "output", "k": "j", "j": "jj", "grade": "mark", "limit": "bound", "letter": "ch"}


def renamed(src):
    """The same program with its names changed, strings left alone."""
    parts = re.split(r'("[^"\n]*"|\'[^\'\n]*\')', src)
    for i in range(0, len(parts), 2):
        parts[i] = re.sub(r"\b[a-z_][a-z_]*\b", lambda m: RENAME.get(m.group(0), m.group(0)), parts[i])
    return "".join(parts)


def sub(src, old, new):
    assert old in src, old
    return src.replace(old, new, 1)


EX = {}

EX["dedupe"] = dict(fn="dedupe", args=[[[1, 2, 1, 3]], [[3, 3, 3]], [[]], [[5, 4, 5, 4, 6]], [["b", "a", "b"]],
                                       [[2, 1]], [[1, 1, 2, 2, 3, 1]], [[9]]],
    ref='''def dedupe(lst):
    """The items of lst without repeats, in the order they first appear."""
    seen = set()
    out = []
    for x in lst:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out
''',
    correct=['''def dedupe(lst):
    result = []
    for item in lst:
        if item not in result:
            result.append(item)
    return result
''', '''def dedupe(lst):
    return list(dict.fromkeys(lst))
''', '''def dedupe(lst):
    seen = []
    for x in lst:
        if x in seen:
            continue
        seen.append(x)
    return seen
''', '''def dedupe(lst):
    out = []
    i = 0
    while i < len(lst):
        if lst[i] not in out:
            out.append(lst[i])
        i += 1
    return out
'''],
    wrong=['''def dedupe(lst):
    return list(set(lst))
''', '''def dedupe(lst):
    return sorted(set(lst))
''', '''def dedupe(lst):
    result = []
    for item in lst:
        if item in result:
            result.append(item)
    return result
''', '''def dedupe(lst):
    seen = set()
    out = []
    for x in lst:
        if x not in seen:
            out.append(x)
    return out
''', '''def dedupe(lst):
    seen = set()
    out = []
    for x in lst:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return list(seen)
''', '''def dedupe(lst):
    out = []
    for i in range(1, len(lst)):
        if lst[i] not in out:
            out.append(lst[i])
    return out
''', '''def dedupe(lst):
    out = []
    for item in lst:
        if item not in out:
            out.insert(0, item)
    return out
''', '''def dedupe(lst):
    result = []
    for item in lst:
        if item not in lst:
            result.append(item)
    return result
''', '''def dedupe(lst):
    out = []
    for x in lst:
        if x not in out:
            out.append(x)
        return out
''', '''def dedupe(lst):
    out = []
    for x in lst:
        if x not in out:
            out.append(x)
'''])

EX["count_words"] = dict(fn="count_words", args=[["a b a"], ["The the THE"], [""], ["one  two\tone"], ["x"], ["B a b A c"]],
    ref='''def count_words(text):
    """How often each word of text occurs, case ignored."""
    counts = {}
    for word in text.lower().split():
        counts[word] = counts.get(word, 0) + 1
    return counts
''',
    correct=['''def count_words(text):
    counts = {}
    for w in text.lower().split():
        if w in counts:
            counts[w] += 1
        else:
            counts[w] = 1
    return counts
''', '''def count_words(text):
    result = {}
    words = text.lower().split()
    for word in words:
        result[word] = result.get(word, 0) + 1
    return result
''', '''def count_words(text):
    d = {}
    for w in text.split():
        w = w.lower()
        d[w] = d.get(w, 0) + 1
    return d
''', '''def count_words(text):
    counts = {}
    for word in text.lower().split():
        counts.setdefault(word, 0)
        counts[word] += 1
    return counts
'''],
    wrong=['''def count_words(text):
    counts = {}
    for word in text.split():
        counts[word] = counts.get(word, 0) + 1
    return counts
''', '''def count_words(text):
    counts = {}
    for word in text.lower().split():
        counts[word] = 1
    return counts
''', '''def count_words(text):
    counts = {}
    for word in text.lower().split(" "):
        counts[word] = counts.get(word, 0) + 1
    return counts
''', '''def count_words(text):
    counts = {}
    for word in text.lower().split():
        counts[word] = counts.get(word, 1) + 1
    return counts
''', '''def count_words(text):
    counts = {}
    for w in text.lower().split():
        if w in counts:
            counts[w] += 1
    return counts
''', '''def count_words(text):
    counts = {}
    for word in text.upper().split():
        counts[word] = counts.get(word, 0) + 1
    return counts
''', '''def count_words(text):
    counts = {}
    for word in text.lower():
        counts[word] = counts.get(word, 0) + 1
    return counts
''', '''def count_words(text):
    counts = {}
    for w in text.lower().split():
        if w in counts:
            counts[w] += 1
        else:
            counts[w] = 0
    return counts
''', '''def count_words(text):
    counts = {}
    for word in text.lower().split():
        counts[word] = counts.get(word, 0) + 1
        return counts
''', '''def count_words(text):
    counts = {}
    for word in text.lower().split():
        counts[word] = counts.get(word, 0) + 1
'''])

EX["second_largest"] = dict(fn="second_largest", args=[[[1, 2, 3]], [[3, 3, 2]], [[5]], [[]], [[4, 4]], [[-1, -5, -3]],
                                                       [[10, 9, 10, 8]], [[2, 1]]],
    ref='''def second_largest(xs):
    """The second largest distinct value of xs, or None without two."""
    distinct = sorted(set(xs))
    if len(distinct) < 2:
        return None
    return distinct[-2]
''',
    correct=['''def second_largest(xs):
    s = sorted(set(xs), reverse=True)
    return s[1] if len(s) > 1 else None
''', '''def second_largest(xs):
    values = list(set(xs))
    if len(values) < 2:
        return None
    values.sort()
    return values[-2]
''', '''def second_largest(xs):
    u = set(xs)
    if len(u) < 2:
        return None
    u.remove(max(u))
    return max(u)
''', '''def second_largest(xs):
    distinct = sorted(set(xs))
    if len(distinct) >= 2:
        return distinct[-2]
    return None
'''],
    wrong=['''def second_largest(xs):
    distinct = sorted(xs)
    if len(distinct) < 2:
        return None
    return distinct[-2]
''', '''def second_largest(xs):
    distinct = sorted(set(xs))
    return distinct[-2]
''', '''def second_largest(xs):
    distinct = sorted(set(xs))
    if len(distinct) < 2:
        return None
    return distinct[1]
''', '''def second_largest(xs):
    distinct = sorted(set(xs))
    if len(distinct) <= 2:
        return None
    return distinct[-2]
''', '''def second_largest(xs):
    distinct = sorted(set(xs))
    if len(distinct) < 2:
        return None
    return distinct[-1]
''', '''def second_largest(xs):
    s = sorted(set(xs), reverse=True)
    return s[1] if len(s) > 2 else None
''', '''def second_largest(xs):
    s = sorted(set(xs))
    return s[1] if len(s) > 1 else None
''', '''def second_largest(xs):
    values = list(set(xs))
    if len(values) < 2:
        return None
    return values[0]
''', '''def second_largest(xs):
    u = set(xs)
    if len(u) < 2:
        return None
    return max(u)
''', '''def second_largest(xs):
    distinct = sorted(set(xs))
    if len(distinct) < 1:
        return None
    return distinct[-2]
'''])

FIZZ = '''def fizzbuzz(n):
    """The words of fizzbuzz from 1 to n."""
    out = []
    for i in range(1, n + 1):
        if i % 15 == 0:
            out.append("FizzBuzz")
        elif i % 3 == 0:
            out.append("Fizz")
        elif i % 5 == 0:
            out.append("Buzz")
        else:
            out.append(str(i))
    return out
'''
EX["fizzbuzz"] = dict(fn="fizzbuzz", args=[[1], [3], [5], [15], [16], [0], [10]], ref=FIZZ,
    correct=['''def fizzbuzz(n):
    out = []
    for i in range(1, n + 1):
        s = ""
        if i % 3 == 0:
            s += "Fizz"
        if i % 5 == 0:
            s += "Buzz"
        out.append(s or str(i))
    return out
''', '''def fizzbuzz(n):
    res = []
    k = 1
    while k <= n:
        if k % 3 == 0 and k % 5 == 0:
            res.append("FizzBuzz")
        elif k % 3 == 0:
            res.append("Fizz")
        elif k % 5 == 0:
            res.append("Buzz")
        else:
            res.append(str(k))
        k += 1
    return res
''', '''def fizzbuzz(n):
    return ["FizzBuzz" if i % 15 == 0 else "Fizz" if i % 3 == 0 else "Buzz" if i % 5 == 0 else str(i) for i in range(1, n + 1)]
''', '''def fizzbuzz(n):
    out = []
    for i in range(n):
        j = i + 1
        if j % 15 == 0:
            out.append("FizzBuzz")
        elif j % 3 == 0:
            out.append("Fizz")
        elif j % 5 == 0:
            out.append("Buzz")
        else:
            out.append(str(j))
    return out
'''],
    wrong=[sub(FIZZ, "range(1, n + 1)", "range(1, n)"),
           sub(FIZZ, "range(1, n + 1)", "range(n)"),
           sub(sub(FIZZ, '"Fizz")\n        elif i % 5', '"Buzz")\n        elif i % 5'), 'out.append("Buzz")\n        else', 'out.append("Fizz")\n        else'),
           sub(FIZZ, "out.append(str(i))", "out.append(i)"),
           sub(FIZZ, '"FizzBuzz"', '"Fizzbuzz"'),
           sub(FIZZ, "i % 15 == 0", "i % 15 == 1"),
           sub(FIZZ, "        elif i % 3 == 0:", "        if i % 3 == 0:"),
           sub(FIZZ, "    return out\n", "        return out\n"),
           '''def fizzbuzz(n):
    out = []
    for i in range(1, n + 1):
        if i % 3 == 0:
            out.append("Fizz")
        elif i % 5 == 0:
            out.append("Buzz")
        elif i % 15 == 0:
            out.append("FizzBuzz")
        else:
            out.append(str(i))
    return out
''',
           sub(FIZZ, "i % 5 == 0", "i % 5 == 5"),
           ])

CLASS = os.path.join(ROOT, "class")
GRADE_REF = open(os.path.join(CLASS, "reference.py")).read()
grade_correct = [open(os.path.join(CLASS, "submissions", f)).read() for f in ("s02_ben.py", "s03_cho.py", "s05_eve.py", "s04_dan.py")]
grade_wrong = [open(os.path.join(CLASS, "submissions", f)).read() for f in (
    "s07_gus.py", "s10_jon.py", "s13_max.py", "s15_ola.py", "s17_quin.py", "s20_tia.py", "s22_vic.py", "s23_wes.py", "s24_xia.py", "s25_yan.py")]
EX["letter_grade"] = dict(fn="letter_grade", ref=GRADE_REF, correct=grade_correct, wrong=grade_wrong,
                          suite=json.load(open(os.path.join(CLASS, "tests.json"))))


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    for name, ex in EX.items():
        d = os.path.join(OUT, name)
        os.makedirs(os.path.join(d, "submissions"))
        open(os.path.join(d, "reference.py"), "w").write(ex["ref"])
        suite = ex.get("suite")
        if suite is None:
            ns = {}
            exec(ex["ref"], ns)
            f = ns[ex["fn"]]
            suite = {"function": ex["fn"], "tests": [{"args": a, "expected": f(*a)} for a in ex["args"]]}
        json.dump(suite, open(os.path.join(d, "tests.json"), "w"), indent=1)
        correct = [ex["ref"]] + ex["correct"]
        correct = correct + [renamed(c) for c in correct]
        for i, src in enumerate(correct[:10]):
            open(os.path.join(d, "submissions", "ok%02d.py" % (i + 1)), "w").write(src)
        for i, src in enumerate(ex["wrong"][:10]):
            open(os.path.join(d, "submissions", "bug%02d.py" % (i + 1)), "w").write(src)
        print(name, len(correct[:10]), "correct,", len(ex["wrong"][:10]), "wrong")


if __name__ == "__main__":
    main()
