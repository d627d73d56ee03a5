def has_alias(words):
    """Whether a FROM comes before an AS, the keywords in any case."""
    seen_from = False
    for w in words:
        if w.upper() == "FROM":
            seen_from = True
        if w == "AS":
            return seen_from
    return False
