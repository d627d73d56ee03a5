def letter_grade(score):
    """The letter for a score from 0 to 100: A from 90, B from 80, C from
    70, D from 60, else F. Scores outside 0-100 raise ValueError."""
    if score < 0 or score > 100:
        raise ValueError("score out of range")
    if score > 90:
        return "A"
    elif score >= 80:
        return "B"
    elif score >= 70:
        return "C"
    elif score >= 60:
        return "D"
    return "F"
