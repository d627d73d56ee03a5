def signature(word):
    """The letters of word, lower-cased and sorted, as a tuple."""
    return tuple(sorted(word.lower()))


def groups(words):
    """A dict signature -> set of the words (as given) that have it."""
    out = {}
    for w in words:
        out.setdefault(signature(w), set()).add(w)
    return out


def anagram_sets(words):
    """The sets of two or more words that are anagrams of each other,
    as a set of frozensets."""
    return {frozenset(g) for g in groups(words).values() if len(g) > 1}


def is_anagram(a, b):
    if not a or not b:
        raise ValueError("empty word")
    return a.lower() != b.lower() and signature(a) == signature(b)
