def dedupe(lst):
    """The items of lst without repeats, in the order they first appear."""
    seen = set()
    out = []
    for x in lst:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out
