def first_word(s):
    """The first word of s; "" when s has none."""
    words = s.split()
    if len(words) < 2:
        return ""
    return words[0]
