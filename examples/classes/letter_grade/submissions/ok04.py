def letter_grade(score):
    if score > 100 or score < 0:
        raise ValueError("no")
    grade = "F"
    if score >= 60:
        grade = "D"
    if score >= 70:
        grade = "C"
    if score >= 80:
        grade = "B"
    if score >= 90:
        grade = "A"
    return grade
