def letter_grade(points):
    if not 0 <= points <= 100:
        raise ValueError("bad score")
    for bound, ch in ((90, "A"), (80, "B"), (70, "C"), (60, "D")):
        if points >= bound:
            return ch
    return "F"
