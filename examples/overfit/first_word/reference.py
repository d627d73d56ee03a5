def first_word(s):
    """The first word of s; "" when s has none."""
    words = s.split()
    if not words:
        return ""
    return words[0]
