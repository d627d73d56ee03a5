import pytest

from poly import Poly


@pytest.fixture
def p():
    return Poly(1, -3, 2)  # 2x^2 - 3x + 1


def test_trailing_zeros_dropped():
    assert Poly(1, 2, 0, 0).coeffs == (1, 2)
    assert Poly(0, 0).coeffs == ()


def test_degree(p):
    assert p.degree() == 2
    assert Poly(5).degree() == 0


def test_zero_has_no_degree():
    with pytest.raises(ValueError):
        Poly().degree()


@pytest.mark.parametrize("x, want", [(0, 1), (1, 0), (0.5, 0), (2, 3), (-1, 6), (0.1, 0.72)])
def test_call(p, x, want):
    assert p(x) == pytest.approx(want)


def test_add(p):
    s = p.add(Poly(0, 3, -2))
    assert isinstance(s, Poly)
    assert s.coeffs == (1,)


def test_mul(p):
    assert p.mul(Poly(1, 1)).coeffs == (1, -2, -1, 2)
    assert p.mul(Poly()).coeffs == ()


def test_derivative_chain(p):
    d = p.derivative()
    assert d.coeffs == (-3, 4)
    assert d.derivative().derivative().coeffs == ()
    assert p.mul(p).derivative()(1.5) == pytest.approx(2 * p(1.5) * d(1.5))
