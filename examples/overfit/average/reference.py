def average(xs):
    """The mean of xs; 0 for an empty list."""
    if not xs:
        return 0
    return sum(xs) / len(xs)
