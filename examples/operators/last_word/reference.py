def last_word(text):
    """The last word of text, or "" when it has none."""
    last = ""
    for word in text.split():
        last = word
    return last
