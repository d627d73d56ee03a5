def stats(xs):
    """The smallest, the largest and the mean of a non-empty list."""
    lo = xs[0]
    hi = xs[0]
    total = 0
    for x in xs:
        if x < lo:
            lo = x
        if x > hi:
            hi = x
        total += x
    return lo, hi, total / len(xs)
