ONES = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]
TENS = ["", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"]
HUNDREDS = ["", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"]


def to_roman(n):
    if type(n) is not int or n < 1 or n > 3999:
        raise ValueError(n)
    return "M" * (n // 1000) + HUNDREDS[n // 100 % 10] + TENS[n // 10 % 10] + ONES[n % 10]


def from_roman(s):
    for n in range(1, 4000):
        if to_roman(n) == s:
            return n
    raise ValueError(s)
