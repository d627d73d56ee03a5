import pytest

from temps import c_to_f, f_to_c, warmest

PAIRS = [(0, 32), (100, 212), (-40, -40), (37, 98.6), (-273.15, -459.67)]


@pytest.mark.parametrize("c, f", PAIRS)
def test_c_to_f(c, f):
    assert c_to_f(c) == pytest.approx(f)


@pytest.mark.parametrize("c, f", PAIRS)
def test_f_to_c(c, f):
    assert f_to_c(f) == pytest.approx(c)


@pytest.mark.parametrize("bad", [-300, -273.16])
def test_below_zero_c(bad):
    with pytest.raises(ValueError):
        c_to_f(bad)


def test_below_zero_f():
    with pytest.raises(ValueError):
        f_to_c(-500)


def test_warmest():
    assert warmest({"Oslo": 3.5, "Rome": 18.25, "Lima": 17.0}) == ("Rome", 18.25)


def test_warmest_empty():
    with pytest.raises(ValueError):
        warmest({})
