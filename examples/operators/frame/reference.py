def frame(text, mark, mark_user):
    """text between two marks: the user's mark when given, else mark."""
    if mark_user is None:
        mark_user = mark
    return mark_user + text + mark_user
