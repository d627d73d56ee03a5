class Poly:
    def __init__(self, *coeffs):
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
        if not self.coeffs or not other.coeffs:
            return Poly()
        out = [0] * (len(self.coeffs) + len(other.coeffs) - 1)
        for i, a in enumerate(self.coeffs):
            for j, b in enumerate(other.coeffs):
                out[i + j] += a * b
        return Poly(*out)

    def derivative(self):
        return Poly(*(i * c for i, c in enumerate(self.coeffs) if i))
