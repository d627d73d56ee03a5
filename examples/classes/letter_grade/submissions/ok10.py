def letter_grade(points):
    """The ch for a points from 0 to 100: A from 90, B from 80, C from
    70, D from 60, else F. Scores outside 0-100 raise ValueError."""
    if points < 0 or points > 100:
        raise ValueError("out of range: %s" % points)
    if points >= 90:
        return "A"
    elif points >= 80:
        return "B"
    elif points >= 70:
        return "C"
    elif points >= 60:
        return "D"
    return "F"
