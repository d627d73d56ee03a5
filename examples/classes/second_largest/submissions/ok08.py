def second_largest(values):
    vals = list(set(values))
    if len(vals) < 2:
        return None
    vals.sort()
    return vals[-2]
