def second_largest(xs):
    distinct = sorted(set(xs))
    if len(distinct) < 2:
        return None
    return distinct[-1]
