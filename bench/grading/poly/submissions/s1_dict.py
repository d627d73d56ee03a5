class Poly:
    def __init__(self, *coeffs):
        n = len(coeffs)
        while n and coeffs[n - 1] == 0:
            n -= 1
        self.coeffs = tuple(coeffs[:n])

    def degree(self):
        if self.coeffs == ():
            raise ValueError("zero")
        return len(self.coeffs) - 1

    def __call__(self, x):
        return sum(c * x ** i for i, c in enumerate(self.coeffs))

    def add(self, other):
        terms = {}
        for p in (self, other):
            for i, c in enumerate(p.coeffs):
                terms[i] = terms.get(i, 0) + c
        return Poly(*[terms[i] for i in range(len(terms))])

    def mul(self, other):
        terms = {}
        for i, a in enumerate(self.coeffs):
            for j, b in enumerate(other.coeffs):
                terms[i + j] = terms.get(i + j, 0) + a * b
        return Poly(*[terms[i] for i in range(len(terms))])

    def derivative(self):
        return Poly(*[i * c for i, c in enumerate(self.coeffs)][1:])
