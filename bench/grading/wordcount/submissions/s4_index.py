def words(text):
    out = []
    for w in text.split():
        while w and not w[-1].isalnum():
            w = w[:-1]
        while not w[0].isalnum():
            w = w[1:]
        out.append(w.lower())
    return out


def counts(text):
    d = {}
    for w in words(text):
        d[w] = d.get(w, 0) + 1
    return d


def top(text, n):
    if n < 1:
        raise ValueError("n")
    return sorted(counts(text).items(), key=lambda kv: (-kv[1], kv[0]))[:n]


def vocabulary(text):
    return frozenset(words(text))
