def clamp_all(xs, lo, hi):
    """Each number of xs brought into [lo, hi]."""
    out = []
    for x in xs:
        if x < lo:
            out.append(hi)
        elif x > hi:
            out.append(lo)
        else:
            out.append(x)
    return out
