class UnknownStudent(KeyError):
    pass


class Gradebook:
    def __init__(self, weights):
        if round(sum(weights.values()), 6) != 1:
            raise ValueError("weights must sum to 1")
        self.weights = weights
        self.scores = {}

    def record(self, student, category, score):
        if category not in self.weights or not 0 <= score <= 100:
            raise ValueError("bad record")
        self.scores.setdefault(student, []).append((category, score))

    def average(self, student):
        if student not in self.scores:
            raise UnknownStudent(student)
        return sum(self.weights[c] * s for c, s in self.scores[student]) / sum(
            self.weights[c] for c, _ in self.scores[student]) * sum(
            self.weights[c] for c in {c for c, _ in self.scores[student]})

    def report(self):
        return {s: round(self.average(s), 1) for s in self.scores}

    def top(self):
        return max(self.scores, key=self.average)
