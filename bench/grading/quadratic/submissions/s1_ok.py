import math


class NotQuadratic(ValueError):
    pass


def roots(a, b, c):
    if not a:
        raise NotQuadratic()
    d = b * b - 4 * a * c
    if d < 0:
        re, im = -b / (2 * a), math.sqrt(-d) / abs(2 * a)
        return (complex(re, -im), complex(re, im))
    s = math.sqrt(d)
    return tuple(sorted([(-b - s) / (2 * a), (-b + s) / (2 * a)]))


def vertex(a, b, c):
    if not a:
        raise NotQuadratic()
    x = -b / (2 * a)
    return x, c - b * b / (4 * a)
