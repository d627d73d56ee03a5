def second_largest(xs):
    u = set(xs)
    if len(u) < 2:
        return None
    return max(u)
