VALUES = [(1000, "M"), (500, "D"), (100, "C"), (50, "L"), (10, "X"), (5, "V"), (1, "I")]


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
    digits = dict((l, v) for v, l in VALUES)
    if not s or any(c not in digits for c in s):
        raise ValueError(s)
    total = 0
    for i, c in enumerate(s):
        if i + 1 < len(s) and digits[s[i + 1]] > digits[c]:
            total -= digits[c]
        else:
            total += digits[c]
    if to_roman(total) != s:
        raise ValueError(s)
    return total
