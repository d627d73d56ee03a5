import itertools

import pytest

from runs import encode, expand, runs

TABLE = [
    ("", []),
    ("a", [("a", 1)]),
    ("aaabccdddd", [("a", 3), ("b", 1), ("c", 2), ("d", 4)]),
    ([1, 1, 2, 1], [(1, 2), (2, 1), (1, 1)]),
    ((None, None), [(None, 2)]),
]


@pytest.mark.parametrize("items, want", TABLE)
def test_runs(items, want):
    assert list(runs(items)) == want


def source():
    yield from "aabaa"
    raise RuntimeError("read past what was asked for")


def test_runs_is_lazy():
    assert list(itertools.islice(runs(source()), 2)) == [("a", 2), ("b", 1)]


def test_runs_of_an_iterator():
    assert next(runs(iter("zzq"))) == ("z", 2)


@pytest.mark.parametrize("items, want", TABLE)
def test_expand(items, want):
    assert list(expand(want)) == list(items)


def test_expand_zero():
    assert list(expand([("x", 0), ("y", 2)])) == ["y", "y"]


def test_expand_negative():
    with pytest.raises(ValueError):
        list(expand([("x", 1), ("y", -1)]))


def test_encode():
    assert encode("wwwwaaadexxxxxx") == "4w3a1d1e6x"
