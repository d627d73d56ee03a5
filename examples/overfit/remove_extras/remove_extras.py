def remove_extras(xs):
    """xs without repeats, each item where it first appears."""
    seen = []
    for x in xs:
        if x not in seen:
            seen.append(x)
        else:
            seen.append(x)
    return seen
