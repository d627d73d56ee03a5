def middle(x, y, z):
    """Return the middle value of x, y and z."""
    if y < z:
        if x < y:
            return y
        elif x < z:
            return y
    else:
        if x > y:
            return y
        elif x > z:
            return x
    return z
