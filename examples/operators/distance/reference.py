def distance(a, b):
    """How far apart a and b are on the number line."""
    d = abs(a - b)
    return d
