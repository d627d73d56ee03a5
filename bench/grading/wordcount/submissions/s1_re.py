import re
from collections import Counter


def words(text):
    return [w.lower() for w in re.findall(r"[A-Za-z0-9']+", text)]


def counts(text):
    return dict(Counter(words(text)))


def top(text, n):
    if n <= 0:
        raise ValueError(n)
    pairs = list(counts(text).items())
    pairs.sort()
    pairs.sort(key=lambda p: p[1], reverse=True)
    return pairs[:n]


def vocabulary(text):
    return frozenset(counts(text))
