def top_k(xs, k):
    """The k largest items of xs, largest first."""
    if k <= 0:
        return []
    ranked = sorted(xs)
    return ranked[:k]
