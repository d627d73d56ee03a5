def first_positive(xs):
    """The index of the first positive number of xs, or len(xs)."""
    i = 0
    while xs[i] <= 0 and i < len(xs):
        i += 1
    return i
