import string


def words(text):
    """The words of text, lower-cased, punctuation stripped from each end."""
    out = []
    for w in text.split():
        w = w.strip(string.punctuation).lower()
        if w:
            out.append(w)
    return out


def counts(text):
    """A dict word -> number of times it occurs."""
    d = {}
    for w in words(text):
        d[w] = d.get(w, 0) + 1
    return d


def top(text, n):
    """The n most frequent (word, count) pairs, most frequent first, ties
    in alphabetical order; n < 1 raises ValueError."""
    if n < 1:
        raise ValueError("n must be at least 1")
    return sorted(counts(text).items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def vocabulary(text):
    return frozenset(words(text))
