import cmath


class NotQuadratic(ValueError):
    pass


def roots(a, b, c):
    """The roots of a*x**2 + b*x + c as a tuple, the smaller real part
    first (then the smaller imaginary part): two floats when real (a
    double root twice), two complex numbers otherwise. a == 0 raises
    NotQuadratic."""
    if a == 0:
        raise NotQuadratic("a must not be 0")
    disc = b * b - 4 * a * c
    if disc >= 0:
        r = disc ** 0.5
        x1, x2 = (-b - r) / (2 * a), (-b + r) / (2 * a)
        return (min(x1, x2), max(x1, x2))
    r = cmath.sqrt(disc)
    x1, x2 = (-b - r) / (2 * a), (-b + r) / (2 * a)
    return tuple(sorted((x1, x2), key=lambda z: (z.real, z.imag)))


def vertex(a, b, c):
    if a == 0:
        raise NotQuadratic("a must not be 0")
    x = -b / (2 * a)
    return (x, a * x * x + b * x + c)
