def intersection(s1, s2):
    """The items that are in both s1 and s2, sorted."""
    ret = set()
    for e1 in s1:
        for e2 in s2:
            if e1 == e2:
                ret.add(e1)
    return sorted(ret)
