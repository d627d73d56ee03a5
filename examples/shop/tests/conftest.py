import pytest
from shop import Cart


@pytest.fixture
def cart():
    c = Cart()
    c.add("apple", 3, qty=2)
    c.add("pear", 5)
    return c
