def bracket(text, left, right, left_user, right_user):
    """text between brackets: the user's when given, else left and right."""
    if left_user is not None:
        left = left_user
    if right_user is not None:
        right = right_user
    return left + text + right
