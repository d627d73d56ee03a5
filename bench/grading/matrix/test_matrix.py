import pytest

from matrix import identity, multiply, shape, transpose

A = ((1, 2, 3), (4, 5, 6))
B = ((7, 8), (9, 10), (11, 12))


def test_shape():
    assert shape(A) == (2, 3)
    assert shape([[1]]) == (1, 1)


@pytest.mark.parametrize("bad", [[], [[]], [[1, 2], [3]], ((1,), (2, 3))])
def test_shape_bad(bad):
    with pytest.raises(ValueError):
        shape(bad)


def test_transpose():
    assert transpose(A) == ((1, 4), (2, 5), (3, 6))
    assert transpose(transpose(B)) == B


def test_transpose_lists_give_tuples():
    t = transpose([[1, 2]])
    assert t == ((1,), (2,))
    assert isinstance(t, tuple) and isinstance(t[0], tuple)


def test_multiply():
    assert multiply(A, B) == ((58, 64), (139, 154))


def test_multiply_mismatch():
    with pytest.raises(ValueError):
        multiply(A, A)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_identity(n):
    i = identity(n)
    assert shape(i) == (n, n)
    assert sum(map(sum, i)) == n
    if n == 2:
        assert multiply(i, B[:2]) == B[:2]
