def count_runs(xs):
    """The number of maximal runs of equal neighbours in xs."""
    runs = 0
    prev = None
    for x in xs:
        if x != prev:
            runs += 1
    return runs
