from math import gcd


class Ratio:
    """A fraction in lowest terms with a positive denominator."""

    def __init__(self, num, den=1):
        if den == 0:
            raise ValueError("zero denominator")
        if den < 0:
            num, den = -num, -den
        g = gcd(num, den) or 1
        self.num, self.den = num // g, den // g

    def add(self, other):
        return Ratio(self.num * other.den + other.num * self.den, self.den * other.den)

    def mul(self, other):
        return Ratio(self.num * other.num, self.den * other.den)

    def inverse(self):
        return Ratio(self.den, self.num)

    def as_tuple(self):
        return (self.num, self.den)

    def __float__(self):
        return self.num / self.den

    def __eq__(self, other):
        return isinstance(other, Ratio) and self.as_tuple() == other.as_tuple()

    def __repr__(self):
        return "Ratio(%d, %d)" % (self.num, self.den)
