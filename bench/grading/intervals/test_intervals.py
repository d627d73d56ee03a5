import pytest

from intervals import covers, merge, total_length

CASES = [
    ([], []),
    ([(1, 3)], [(1, 3)]),
    ([(1, 3), (2, 6), (8, 10), (15, 18)], [(1, 6), (8, 10), (15, 18)]),
    ([(5, 7), (1, 2)], [(1, 2), (5, 7)]),
    ([(1, 4), (4, 5)], [(1, 5)]),
    ([(1, 10), (2, 3), (4, 5)], [(1, 10)]),
    ([(0.5, 1.5), (1.25, 2.0)], [(0.5, 2.0)]),
]


@pytest.mark.parametrize("given, want", CASES)
def test_merge(given, want):
    assert merge(given) == want


def test_merge_does_not_change_input():
    given = [(3, 4), (1, 2)]
    merge(given)
    assert given == [(3, 4), (1, 2)]


def test_bad_interval():
    with pytest.raises(ValueError, match="bad interval"):
        merge([(1, 2), (5, 3)])


def test_total_length():
    assert total_length([(1, 3), (2, 6), (8, 10)]) == 7
    assert total_length([(0.1, 0.3), (0.2, 0.4)]) == pytest.approx(0.3)


@pytest.mark.parametrize("x, want", [(0, False), (1, True), (6, True), (7, False), (8.5, True)])
def test_covers(x, want):
    assert covers([(1, 3), (2, 6), (8, 10)], x) is want
