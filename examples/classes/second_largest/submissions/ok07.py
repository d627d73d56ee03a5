def second_largest(values):
    t = sorted(set(values), reverse=True)
    return t[1] if len(t) > 1 else None
