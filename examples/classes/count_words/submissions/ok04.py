def count_words(text):
    d = {}
    for w in text.split():
        w = w.lower()
        d[w] = d.get(w, 0) + 1
    return d
