import math

import pytest

from shapes import Circle, Rect, Shape, largest


@pytest.fixture
def shapes():
    return [Circle(1), Rect(2, 3), Circle(1.5), Rect(1, 1)]


@pytest.mark.parametrize("shape, area, perimeter", [
    (Circle(1), math.pi, 2 * math.pi),
    (Circle(0.5), 0.7853982, 3.1415927),
    (Rect(2, 3), 6, 10),
    (Rect(0.1, 0.2), 0.02, 0.6),
])
def test_measures(shape, area, perimeter):
    assert shape.area() == pytest.approx(area)
    assert shape.perimeter() == pytest.approx(perimeter)


def test_scaled_is_same_kind():
    c = Circle(2).scaled(3)
    r = Rect(1, 2).scaled(0.5)
    assert isinstance(c, Circle) and isinstance(r, Rect)
    assert c.r == 6
    assert (r.w, r.h) == (0.5, 1)


def test_scaled_area(shapes):
    for s in shapes:
        assert s.scaled(2).area() == pytest.approx(4 * s.area())


def test_largest(shapes):
    big = largest(shapes)
    assert isinstance(big, Circle)
    assert big.r == 1.5


def test_is_a_shape(shapes):
    assert all(isinstance(s, Shape) for s in shapes)


@pytest.mark.parametrize("make", [lambda: Circle(0), lambda: Rect(1, -1), lambda: Rect(0, 2), lambda: Circle(1).scaled(-1)])
def test_bad_sizes(make):
    with pytest.raises(ValueError):
        make()
