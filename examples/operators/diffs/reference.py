def diffs(xs):
    """The differences between neighbours: [xs[1] - xs[0], xs[2] - xs[1], ...]."""
    return [b - a for a, b in zip(xs, xs[1:])]
