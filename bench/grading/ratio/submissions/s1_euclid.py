def _gcd(a, b):
    a, b = abs(a), abs(b)
    while b:
        a, b = b, a % b
    return a


class Ratio:
    def __init__(self, num, den=1):
        if not den:
            raise ValueError("den is 0")
        sign = -1 if (num < 0) != (den < 0) and num != 0 else 1
        g = _gcd(num, den) or 1
        self.num = sign * abs(num) // g
        self.den = abs(den) // g

    def add(self, other):
        return Ratio(self.num * other.den + self.den * other.num, self.den * other.den)

    def mul(self, other):
        return Ratio(self.num * other.num, self.den * other.den)

    def inverse(self):
        return Ratio(self.den, self.num)

    def as_tuple(self):
        return self.num, self.den

    def __float__(self):
        return float(self.num) / self.den

    def __eq__(self, other):
        if not isinstance(other, Ratio):
            return NotImplemented
        return self.num * other.den == other.num * self.den
