import itertools
import types

import pytest

from primes import factorize, is_prime, primes

FIRST_TEN = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
FACTORS = {
    2: {2: 1},
    12: {2: 2, 3: 1},
    97: {97: 1},
    360: {2: 3, 3: 2, 5: 1},
    1001: {7: 1, 11: 1, 13: 1},
    2 ** 10: {2: 10},
}


def test_first_ten():
    assert list(itertools.islice(primes(), 10)) == FIRST_TEN


def test_is_a_generator():
    g = primes()
    assert isinstance(g, types.GeneratorType)
    assert next(g) == 2
    assert next(g) == 3


def test_independent_generators():
    a, b = primes(), primes()
    next(a)
    next(a)
    assert next(b) == 2
    assert next(a) == 5


@pytest.mark.parametrize("n, want", [(0, False), (1, False), (2, True), (9, False), (29, True), (-7, False)])
def test_is_prime(n, want):
    assert is_prime(n) is want


@pytest.mark.parametrize("n", sorted(FACTORS))
def test_factorize(n):
    assert factorize(n) == FACTORS[n]


@pytest.mark.parametrize("bad", [1, 0, -12, 2.5])
def test_factorize_bad(bad):
    with pytest.raises(ValueError):
        factorize(bad)
