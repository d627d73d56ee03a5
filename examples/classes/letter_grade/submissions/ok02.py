def letter_grade(score):
    if not 0 <= score <= 100:
        raise ValueError("bad score")
    for limit, letter in ((90, "A"), (80, "B"), (70, "C"), (60, "D")):
        if score >= limit:
            return letter
    return "F"
