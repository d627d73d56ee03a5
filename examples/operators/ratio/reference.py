def ratio(part, whole, default):
    """part / whole, or default when whole is 0."""
    return part / whole if whole else default
