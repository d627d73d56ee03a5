def second_largest(xs):
    values = list(set(xs))
    if len(values) < 2:
        return None
    return values[0]
