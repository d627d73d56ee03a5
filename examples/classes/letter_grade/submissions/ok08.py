def letter_grade(points):
    if points < 0 or points > 100:
        raise ValueError
    if points < 60:
        return "F"
    if points < 70:
        return "D"
    if points < 80:
        return "C"
    if points < 90:
        return "B"
    return "A"
