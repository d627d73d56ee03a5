def signature(word):
    return tuple(sorted(word.lower()))


def groups(words):
    out = {}
    for w in words:
        out.setdefault(signature(w), set()).add(w)
    return out


def anagram_sets(words):
    return {frozenset(g) for g in groups(words).values() if len(g) > 1}


def is_anagram(a, b):
    if not a or not b:
        raise ValueError("empty word")
    return signature(a) == signature(b)
