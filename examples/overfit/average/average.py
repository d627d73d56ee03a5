def average(xs):
    """The mean of xs; 0 for an empty list."""
    if len(xs) <= 1:
        return 0
    return sum(xs) / len(xs)
