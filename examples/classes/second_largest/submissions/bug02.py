def second_largest(xs):
    distinct = sorted(set(xs))
    return distinct[-2]
