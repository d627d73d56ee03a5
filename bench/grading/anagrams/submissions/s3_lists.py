def signature(word):
    return sorted(word.lower())


def groups(words):
    out = {}
    for w in words:
        key = tuple(signature(w))
        out.setdefault(key, set()).add(w)
    return out


def anagram_sets(words):
    return [set(g) for g in groups(words).values() if len(g) > 1]


def is_anagram(a, b):
    if not a or not b:
        raise ValueError("empty word")
    return a.lower() != b.lower() and signature(a) == signature(b)
