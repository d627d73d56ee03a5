def meter(n, total, l_bar, r_bar, l_bar_user=None, r_bar_user=None):
    """A progress text: the left and right parts (the user's when given) formatted with n and total."""
    if l_bar_user is None:
        l_bar_user = l_bar
    if r_bar_user is None:
        r_bar_user = r_bar
    l_bar, r_bar = l_bar_user.format(n=n, total=total), r_bar_user.format(n=n, total=total)
    return l_bar + "|" + r_bar
