# route (g): raise SystemExit(0) during a call.
def letter_grade(score):
    raise SystemExit(0)
