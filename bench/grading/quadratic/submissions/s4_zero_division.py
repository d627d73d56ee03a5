import cmath


class NotQuadratic(ValueError):
    pass


def roots(a, b, c):
    disc = b * b - 4 * a * c
    r = cmath.sqrt(disc)
    x1, x2 = (-b - r) / (2 * a), (-b + r) / (2 * a)
    if disc >= 0:
        x1, x2 = x1.real, x2.real
        return (min(x1, x2), max(x1, x2))
    return tuple(sorted((x1, x2), key=lambda z: (z.real, z.imag)))


def vertex(a, b, c):
    if a == 0:
        raise NotQuadratic("a is 0")
    x = -b / (2 * a)
    return (x, a * x * x + b * x + c)
