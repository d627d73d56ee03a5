import math


class UnknownStudent(KeyError):
    pass


class Gradebook:
    def __init__(self, weights):
        if not math.isclose(sum(weights.values()), 1.0):
            raise ValueError("weights")
        self.weights = weights.copy()
        self.marks = {}

    def record(self, student, category, score):
        if category not in self.weights or score < 0 or score > 100:
            raise ValueError((category, score))
        self.marks.setdefault((student, category), []).append(score)
        self.marks.setdefault(student, True)

    def average(self, student):
        if student not in self.marks:
            raise UnknownStudent(student)
        avg = 0.0
        for cat, w in self.weights.items():
            got = self.marks.get((student, cat))
            if got:
                avg += w * sum(got) / len(got)
        return avg

    def students(self):
        return [k for k in self.marks if not isinstance(k, tuple)]

    def report(self):
        return {s: round(self.average(s), 1) for s in self.students()}

    def top(self):
        return sorted(self.students(), key=lambda s: (self.average(s), s))[-1]
