def c_to_f(c):
    if c < -273.15:
        raise ValueError("too cold")
    return c * 9 // 5 + 32


def f_to_c(f):
    if f < -459.67:
        raise ValueError("too cold")
    return (f - 32) * 5 // 9


def warmest(readings):
    if not readings:
        raise ValueError("empty")
    return max(readings.items(), key=lambda kv: kv[1])
