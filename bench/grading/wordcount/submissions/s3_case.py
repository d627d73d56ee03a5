def words(text):
    out = []
    for w in text.split():
        w = w.strip(".,!?")
        if w:
            out.append(w)
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
    return set(words(text))
