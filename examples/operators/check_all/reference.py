import operator

OPS = {"<": operator.lt, "<=": operator.le, "==": operator.eq, ">": operator.gt}


def check_all(pairs, op, negate):
    """For each pair (a, b) whether a op b holds (fails, when negate)."""
    cmp = OPS[op]
    if negate:
        test = lambda a, b: not cmp(a, b)
    else:
        test = cmp
    return [test(a, b) for a, b in pairs]
