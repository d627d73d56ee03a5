import cmath


class NotQuadratic(ValueError):
    pass


def roots(a, b, c):
    if a == 0:
        raise NotQuadratic("a is 0")
    disc = b * b - 4 * a * c
    if disc >= 0:
        r = disc ** 0.5
        return ((-b - r) / (2 * a), (-b + r) / (2 * a))
    r = cmath.sqrt(disc)
    return ((-b - r) / (2 * a), (-b + r) / (2 * a))


def vertex(a, b, c):
    if a == 0:
        raise NotQuadratic("a is 0")
    x = -b / (2 * a)
    return (x, a * x * x + b * x + c)
