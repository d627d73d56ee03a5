def second_largest(values):
    uniq = sorted(set(values))
    if len(uniq) >= 2:
        return uniq[-2]
    return None
