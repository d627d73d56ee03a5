import pytest

from graph import NoPath, degrees, reachable, shortest_path


@pytest.fixture
def g():
    return {
        "a": ["b", "c"],
        "b": ["d"],
        "c": ["d", "e"],
        "d": ["f"],
        "e": ["f"],
        "f": [],
        "x": ["a"],
    }


def test_reachable(g):
    assert reachable(g, "a") == {"a", "b", "c", "d", "e", "f"}
    assert reachable(g, "f") == {"f"}


def test_reachable_cycle():
    assert reachable({1: [2], 2: [1], 3: [1]}, 1) == {1, 2}


@pytest.mark.parametrize("start, goal, length", [("a", "f", 4), ("x", "e", 4), ("a", "a", 1), ("c", "f", 3)])
def test_shortest_path(g, start, goal, length):
    path = shortest_path(g, start, goal)
    assert len(path) == length
    assert path[0] == start and path[-1] == goal
    for u, v in zip(path, path[1:]):
        assert v in g[u]


def test_shortest_not_first_found():
    assert shortest_path({1: [2, 4], 2: [3], 3: [4], 4: []}, 1, 4) == [1, 4]


def test_no_path(g):
    with pytest.raises(NoPath):
        shortest_path(g, "f", "a")


@pytest.mark.parametrize("fn", [reachable, lambda g, s: shortest_path(g, s, "a")])
def test_unknown_start(g, fn):
    with pytest.raises(ValueError):
        fn(g, "zz")


def test_degrees(g):
    d = degrees(g)
    assert d["a"] == (2, 1)
    assert d["f"] == (0, 2)
    assert d["x"] == (1, 0)
    assert sum(o for o, _ in d.values()) == sum(i for _, i in d.values()) == 8
