def first_positive(xs):
    """The index of the first positive number of xs, or len(xs)."""
    i = 0
    while i < len(xs) and xs[i] <= 0:
        i += 1
    return i
