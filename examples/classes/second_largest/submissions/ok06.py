def second_largest(values):
    """The second largest distinct value of xs, or None without two."""
    uniq = sorted(set(values))
    if len(uniq) < 2:
        return None
    return uniq[-2]
