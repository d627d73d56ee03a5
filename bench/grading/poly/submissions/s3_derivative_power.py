class Poly:
    def __init__(self, *coeffs):
        coeffs = list(coeffs)
        while coeffs and not coeffs[-1]:
            del coeffs[-1]
        self.coeffs = tuple(coeffs)

    def degree(self):
        if not self.coeffs:
            raise ValueError("zero")
        return len(self.coeffs) - 1

    def __call__(self, x):
        return sum(c * x ** i for i, c in enumerate(self.coeffs))

    def add(self, other):
        n = max(len(self.coeffs), len(other.coeffs))
        a = self.coeffs + (0,) * (n - len(self.coeffs))
        b = other.coeffs + (0,) * (n - len(other.coeffs))
        return Poly(*(x + y for x, y in zip(a, b)))

    def mul(self, other):
        out = [0] * (len(self.coeffs) + len(other.coeffs))
        for i, a in enumerate(self.coeffs):
            for j, b in enumerate(other.coeffs):
                out[i + j] += a * b
        return Poly(*out)

    def derivative(self):
        return Poly(*(c for i, c in enumerate(self.coeffs) if i))
