import pytest

from quadratic import NotQuadratic, roots, vertex

REAL = [
    ((1, -3, 2), (1.0, 2.0)),
    ((1, 2, 1), (-1.0, -1.0)),
    ((2, 0, -8), (-2.0, 2.0)),
    ((-1, 0, 4), (-2.0, 2.0)),
    ((1, 0, -2), (-1.4142136, 1.4142136)),
]


@pytest.mark.parametrize("coeffs, want", REAL)
def test_real_roots(coeffs, want):
    got = roots(*coeffs)
    assert isinstance(got, tuple)
    assert got == pytest.approx(want)


def test_complex_roots():
    lo, hi = roots(1, 2, 5)
    assert lo == pytest.approx(complex(-1, -2))
    assert hi == pytest.approx(complex(-1, 2))
    assert isinstance(lo, complex)


def test_roots_solve():
    for coeffs in [(3, 1, 7), (1, -5, 6), (0.5, 0.25, -1)]:
        a, b, c = coeffs
        for x in roots(*coeffs):
            assert abs(a * x * x + b * x + c) < 1e-9


@pytest.mark.parametrize("fn", [roots, vertex])
def test_not_quadratic(fn):
    with pytest.raises(NotQuadratic):
        fn(0, 1, 1)
    with pytest.raises(ValueError):
        fn(0, 2, 3)


def test_vertex():
    assert vertex(1, -4, 3) == pytest.approx((2.0, -1.0))
    assert vertex(-2, 0, 5) == (0, 5)
