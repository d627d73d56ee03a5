def capitalize(s):
    """s with its first letter upper case."""
    if len(s) < 2:
        return s
    return s[0].upper() + s[1:]
