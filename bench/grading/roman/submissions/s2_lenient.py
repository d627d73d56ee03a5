VALUES = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def to_roman(n):
    if not isinstance(n, int) or not 1 <= n <= 3999:
        raise ValueError("out of range")
    out = ""
    for value, letters in VALUES:
        count, n = divmod(n, value)
        out += letters * count
    return out


def from_roman(s):
    digits = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    if not s:
        raise ValueError("empty")
    total = 0
    for a, b in zip(s, s[1:] + "I"):
        if a not in digits:
            raise ValueError(a)
        total += -digits[a] if digits[a] < digits.get(b, 0) else digits[a]
    return total
