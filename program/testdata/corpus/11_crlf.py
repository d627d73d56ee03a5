def add(a, b):
    """Add two numbers."""
    if a is None:
        a = 0
    result = a + b
    return result


def sub(a, b):
    return a - b
