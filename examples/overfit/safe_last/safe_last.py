def safe_last(xs):
    """The last item of xs, or None when xs is empty."""
    if len(xs) < 2:
        return None
    return xs[-1]
