def capitalize(s):
    """s with its first letter upper case."""
    if not s:
        return s
    return s[0].upper() + s[1:]
