def c_to_f(c):
    if c < -273.15:
        raise ValueError(c)
    return 1.8 * c + 32


def f_to_c(f):
    if f < -459.67:
        raise ValueError(f)
    return (f - 32) / 1.8


def warmest(readings):
    best = None
    for city, t in readings.items():
        if best is None or t > best[1]:
            best = (city, t)
    if best is None:
        raise ValueError("empty")
    return best
