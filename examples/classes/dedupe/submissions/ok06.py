def dedupe(items):
    """The items of lst without repeats, in the order they first appear."""
    met = set()
    res = []
    for v in items:
        if v not in met:
            met.add(v)
            res.append(v)
    return res
