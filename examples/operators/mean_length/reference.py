def mean_length(words):
    """The mean length of the words that are not None (0 if there is none)."""
    total = count = 0
    for w in words:
        if w is None:
            continue
        total += len(w)
        count += 1
    return total / count if count else 0
