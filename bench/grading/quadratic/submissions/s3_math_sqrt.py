import math


class NotQuadratic(Exception):
    pass


def roots(a, b, c):
    if a == 0:
        raise NotQuadratic("a is 0")
    r = math.sqrt(b * b - 4 * a * c)
    x1, x2 = (-b - r) / (2 * a), (-b + r) / (2 * a)
    return (min(x1, x2), max(x1, x2))


def vertex(a, b, c):
    if a == 0:
        raise NotQuadratic("a is 0")
    x = -b / (2 * a)
    return (x, a * x * x + b * x + c)
