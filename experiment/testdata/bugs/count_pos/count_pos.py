def count_positive(xs):
    """How many items of xs are greater than zero."""
    n = 0
    for x in xs:
        if x >= 0:
            n += 1
    return n
