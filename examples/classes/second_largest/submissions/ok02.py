def second_largest(xs):
    s = sorted(set(xs), reverse=True)
    return s[1] if len(s) > 1 else None
