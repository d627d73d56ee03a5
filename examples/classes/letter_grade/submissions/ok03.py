def letter_grade(score):
    if score < 0 or score > 100:
        raise ValueError
    if score < 60:
        return "F"
    if score < 70:
        return "D"
    if score < 80:
        return "C"
    if score < 90:
        return "B"
    return "A"
