"""Tests for middle.

def test_not_a_test():
    pass
"""
import pytest
from middle import middle

HELP = '''
def test_also_not_a_test(): pass
'''


def test_sorted():
    assert middle(1, 2, 3) == 2


@pytest.mark.parametrize("x", [1, 2])
def test_same(x):
    assert middle(x, x, x) == x


class TestClass:
    def test_method(self):
        pass


async def test_async():
    s = "def test_in_string(): \"\"\" still one line"
    assert middle(3, 2, 1) == 2

def  test_spaced (  ):  # two spaces
    assert middle(2, 1, 3) == 2

def helper():
    x = """
def test_in_helper_string():
"""
    return x
