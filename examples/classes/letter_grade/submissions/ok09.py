def letter_grade(points):
    if points > 100 or points < 0:
        raise ValueError("no")
    mark = "F"
    if points >= 60:
        mark = "D"
    if points >= 70:
        mark = "C"
    if points >= 80:
        mark = "B"
    if points >= 90:
        mark = "A"
    return mark
