def second_largest(values):
    us = set(values)
    if len(us) < 2:
        return None
    us.remove(max(us))
    return max(us)
