def c_to_f(c):
    if c < -273.15:
        raise ValueError("below absolute zero")
    return c * 9 / 5 + 32


def f_to_c(f):
    c = (f - 32) * 5 / 9
    if c < -273.15:
        raise ValueError("below absolute zero")
    return c


def warmest(readings):
    city = sorted(readings, key=readings.get)[-1]
    return [city, readings[city]]
