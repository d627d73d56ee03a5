def power(base, exp):
    """base raised to the non-negative integer exp."""
    result = 1
    for _ in range(exp):
        result *= base
    return result


def cube(x):
    """x to the third power, for a non-negative integer x."""
    return power(x, 3)
