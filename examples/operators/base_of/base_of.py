def base_of(literal):
    """The base a C integer literal is written in: 16 after "0x", 8 after
    another leading 0 ("017"), else 10 ("0" alone is decimal)."""
    if literal[:2] == "0x":
        return 16
    if literal[0] == "0":
        return 8
    return 10
