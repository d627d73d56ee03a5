def most_common(xs):
    """The element of xs that occurs most often (the first such one)."""
    best = xs[0]
    for x in xs:
        if xs.count(x) > xs.count(best):
            best = x
    return best
