VALUES = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
DIGITS = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def to_roman(n):
    if not isinstance(n, int) or not 1 <= n <= 3999:
        raise ValueError("out of range")
    out = ""
    for value, letters in VALUES:
        while n >= value:
            out += letters
            n -= value
    return out


def from_roman(s):
    if s == "":
        raise ValueError("empty")
    total = DIGITS[s[-1]]
    for a, b in zip(s, s[1:]):
        total += -DIGITS[a] if DIGITS[a] < DIGITS[b] else DIGITS[a]
    if to_roman(total) != s:
        raise ValueError(s)
    return total
