import pytest
from shop import Cart


def test_empty():
    assert Cart().total() == 0


def test_fixture_total(cart):
    assert cart.total() == 11


@pytest.mark.parametrize("percent,want", [(0, 11), (50, 6), (100, 0)])
def test_discount(cart, percent, want):
    assert cart.total(percent) == want


class TestSingle:
    def test_one(self):
        c = Cart()
        c.add("x", 10)
        assert c.total() == 10

    def test_qty(self):
        c = Cart()
        c.add("x", 10, qty=3)
        assert c.total(10) == 27


def test_over_discount(cart):
    assert cart.total(150) == 0
