def second_largest(xs):
    """The second largest distinct value of xs, or None without two."""
    distinct = sorted(set(xs))
    if len(distinct) < 2:
        return None
    return distinct[-2]
