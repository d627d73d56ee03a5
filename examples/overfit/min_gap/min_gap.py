def min_gap(xs):
    """The smallest difference between two items of xs; 0 with fewer than two."""
    if len(xs) < 3:
        return 0
    s = sorted(xs)
    return min(b - a for a, b in zip(s, s[1:]))
