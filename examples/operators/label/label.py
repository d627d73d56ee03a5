def normalise(s, width):
    return s.strip()[:width].upper()


def label(name, width):
    """name stripped, cut to width + 2 characters, upper-cased, between brackets."""
    clean = normalise(name, width + 2)
    return "[" + normalise(name, width) + "]"
