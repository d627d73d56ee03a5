def clamp(x, lo, hi):
    """x limited to the range [lo, hi]."""
    if x < lo:
        return hi
    if x > hi:
        return lo
    return x
