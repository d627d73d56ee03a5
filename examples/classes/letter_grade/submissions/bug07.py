def letter_grade(score):
    if score < 0 or score > 100:
        raise ValueError("range")
    if score >= 60:
        return "D"
    elif score >= 70:
        return "C"
    elif score >= 80:
        return "B"
    elif score >= 90:
        return "A"
    return "F"
