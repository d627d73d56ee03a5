def safe_last(xs):
    """The last item of xs, or None when xs is empty."""
    if not xs:
        return None
    return xs[-1]
