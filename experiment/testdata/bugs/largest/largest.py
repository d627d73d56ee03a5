def largest(xs):
    """The largest item of a non-empty list."""
    best = xs[0]
    for x in xs:
        if x < best:
            best = x
    return best
