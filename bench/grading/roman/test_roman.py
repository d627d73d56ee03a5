import pytest

from roman import from_roman, to_roman

KNOWN = [
    (1, "I"), (3, "III"), (4, "IV"), (9, "IX"), (14, "XIV"), (40, "XL"),
    (90, "XC"), (400, "CD"), (1994, "MCMXCIV"), (2024, "MMXXIV"), (3999, "MMMCMXCIX"),
]


@pytest.mark.parametrize("n, s", KNOWN)
def test_to_roman(n, s):
    assert to_roman(n) == s


@pytest.mark.parametrize("n, s", KNOWN)
def test_from_roman(n, s):
    assert from_roman(s) == n


def test_round_trip():
    for n in range(1, 400):
        assert from_roman(to_roman(n)) == n


@pytest.mark.parametrize("bad", [0, -1, 4000, 2.0])
def test_to_roman_bad(bad):
    with pytest.raises(ValueError):
        to_roman(bad)


@pytest.mark.parametrize("bad", ["", "IIII", "IC", "ABC", "VX", "mcm"])
def test_from_roman_bad(bad):
    with pytest.raises(ValueError):
        from_roman(bad)
