def number_sum(values):
    """The sum of the numbers among values: ints and floats, not bools nor strings."""
    s = 0
    for v in values:
        if isinstance(v, int) and not isinstance(v, bool):
            s += v
    return s
