def most_common(words):
    """The word that occurs most often (the first such); None for no words."""
    if not words:
        return None
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    return max(counts, key=lambda w: counts[w])
