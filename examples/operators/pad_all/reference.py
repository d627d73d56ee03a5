def pad(s, width, fill=" "):
    return s + fill * (width - len(s))


def pad_all(words, width, fill):
    """Every word padded on the right with fill up to width."""
    return [pad(w, width, fill) for w in words]
