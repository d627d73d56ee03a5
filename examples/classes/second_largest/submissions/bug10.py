def second_largest(xs):
    distinct = sorted(set(xs))
    if len(distinct) < 1:
        return None
    return distinct[-2]
