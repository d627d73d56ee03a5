def second_largest(xs):
    distinct = sorted(xs)
    if len(distinct) < 2:
        return None
    return distinct[-2]
