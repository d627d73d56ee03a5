def clamp_all(xs, lo, hi):
    """Each number of xs brought into [lo, hi]."""
    out = []
    for x in xs:
        if x < lo:
            out.append(lo)
        elif x > hi:
            out.append(hi)
        else:
            out.append(x)
    return out
