KEYWORDS = ("SELECT", "CASE", "END", "IF", "FOR", "WHILE")


def block_depth(words):
    """The nesting depth after the words: IF, FOR, WHILE and CASE open a
    block, END closes one; other words do not count."""
    depth = 0
    for w in words:
        if w not in KEYWORDS:
            continue
        if w in ("IF", "FOR", "WHILE", "CASE"):
            depth += 1
        elif w == "END":
            depth -= 1
    return depth
