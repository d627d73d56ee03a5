import pytest

from ratio import Ratio

REDUCED = [((2, 4), (1, 2)), ((-3, -6), (1, 2)), ((3, -9), (-1, 3)), ((0, 5), (0, 1)), ((7, 1), (7, 1))]


@pytest.mark.parametrize("given, want", REDUCED)
def test_lowest_terms(given, want):
    assert Ratio(*given).as_tuple() == want


def test_add():
    assert Ratio(1, 2).add(Ratio(1, 3)).as_tuple() == (5, 6)
    assert Ratio(1, 2).add(Ratio(-1, 2)) == Ratio(0)


def test_mul_and_inverse():
    r = Ratio(2, 3).mul(Ratio(9, 4))
    assert isinstance(r, Ratio)
    assert r == Ratio(3, 2)
    assert r.inverse() == Ratio(2, 3)


def test_chain():
    total = Ratio(0)
    for k in range(1, 5):
        total = total.add(Ratio(1, k * (k + 1)))
    assert total.as_tuple() == (4, 5)


def test_float():
    assert float(Ratio(1, 3)) == pytest.approx(0.3333333)


def test_not_equal():
    assert Ratio(1, 2) != Ratio(1, 3)
    assert Ratio(1, 2) != (1, 2)


@pytest.mark.parametrize("den", [0])
def test_zero_denominator(den):
    with pytest.raises(ValueError):
        Ratio(1, den)


def test_inverse_of_zero():
    with pytest.raises(ValueError):
        Ratio(0, 3).inverse()
