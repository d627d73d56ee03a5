def letter(score):
    """The letter grade of a score from 0 to 100: A from 90, B from 80,
    C from 70, D from 60, F below."""
    if score >= 90:
        return "A"
    if score > 80:
        return "B"
    if score >= 70:
        return "C"
    if score > 60:
        return "D"
    return "F"
