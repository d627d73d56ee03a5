from collections import Counter


def words(text):
    out = []
    for w in text.lower().split():
        w = w.strip(".,!?;:")
        if w:
            out.append(w)
    return out


def counts(text):
    return dict(Counter(words(text)))


def top(text, n):
    if n < 1:
        raise ValueError("n")
    return Counter(words(text)).most_common(n)


def vocabulary(text):
    return frozenset(words(text))
