VALUES = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def to_roman(n):
    """n from 1 to 3999 as a Roman numeral; anything else raises ValueError."""
    if not isinstance(n, int) or not 1 <= n <= 3999:
        raise ValueError("out of range")
    out = []
    for value, letters in VALUES:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


def from_roman(s):
    """The value of a Roman numeral in canonical form; anything else
    raises ValueError."""
    digits = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    if not s or any(ch not in digits for ch in s):
        raise ValueError("not a numeral")
    total = 0
    for i, ch in enumerate(s):
        v = digits[ch]
        if i + 1 < len(s) and digits[s[i + 1]] > v:
            total -= v
        else:
            total += v
    if to_roman(total) != s:
        raise ValueError("not canonical")
    return total
