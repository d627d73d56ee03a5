def percent(part, whole):
    """part as a percentage of whole, rounded; 0 when whole is 0."""
    if whole <= 1:
        return 0
    return round(100 * part / whole)
