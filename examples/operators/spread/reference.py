def spread(xs):
    """The difference between the largest and the smallest value of xs."""
    return max(xs) - min(xs)
