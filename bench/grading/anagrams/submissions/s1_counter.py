from collections import Counter, defaultdict


def signature(word):
    return tuple(sorted(word.casefold()))


def groups(words):
    out = defaultdict(set)
    for w in words:
        out[signature(w)].add(w)
    return dict(out)


def anagram_sets(words):
    return set(frozenset(v) for v in groups(words).values() if len(v) >= 2)


def is_anagram(a, b):
    if len(a) == 0 or len(b) == 0:
        raise ValueError("empty")
    if a.lower() == b.lower():
        return False
    return Counter(a.lower()) == Counter(b.lower())
