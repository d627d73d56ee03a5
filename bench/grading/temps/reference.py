ABSOLUTE_ZERO_C = -273.15


def c_to_f(c):
    """Celsius to Fahrenheit; below absolute zero raises ValueError."""
    if c < ABSOLUTE_ZERO_C:
        raise ValueError("below absolute zero")
    return c * 9 / 5 + 32


def f_to_c(f):
    """Fahrenheit to Celsius; below absolute zero raises ValueError."""
    c = (f - 32) * 5 / 9
    if c < ABSOLUTE_ZERO_C:
        raise ValueError("below absolute zero")
    return c


def warmest(readings):
    """The (city, celsius) pair with the highest reading; readings is a
    dict of city -> celsius. An empty dict raises ValueError."""
    if not readings:
        raise ValueError("no readings")
    city = max(readings, key=readings.get)
    return (city, readings[city])
