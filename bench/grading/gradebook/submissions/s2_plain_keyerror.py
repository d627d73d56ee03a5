class UnknownStudent(Exception):
    pass


class Gradebook:
    def __init__(self, weights):
        if abs(sum(weights.values()) - 1) > 1e-9:
            raise ValueError("weights must sum to 1")
        self.weights = dict(weights)
        self.scores = {}

    def record(self, student, category, score):
        if category not in self.weights:
            raise ValueError("category")
        if not 0 <= score <= 100:
            raise ValueError("score")
        self.scores.setdefault(student, {}).setdefault(category, []).append(score)

    def average(self, student):
        if student not in self.scores:
            raise UnknownStudent(student)
        total = 0.0
        for cat, w in self.weights.items():
            got = self.scores[student].get(cat, [])
            total += w * (sum(got) / len(got) if got else 0)
        return total

    def report(self):
        return {s: round(self.average(s), 1) for s in self.scores}

    def top(self):
        return max(self.scores, key=self.average)
