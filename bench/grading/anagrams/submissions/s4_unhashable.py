def signature(word):
    return tuple(sorted(word.lower()))


def groups(words):
    out = {}
    for w in words:
        out.setdefault(signature(w), set()).add(w)
    return out


def anagram_sets(words):
    return {g for g in groups(words).values() if len(g) > 1}


def is_anagram(a, b):
    if not a or not b:
        raise ValueError("empty word")
    return a.lower() != b.lower() and signature(a) == signature(b)
