from clamp_all import clamp_all


def test_inside():
    assert clamp_all([5, 0, 10], 0, 10) == [5, 0, 10]
    assert clamp_all([], 0, 1) == []


def test_clamps():
    assert clamp_all([3], 0, 10) == [3]
    assert clamp_all([-1], 0, 10) == [0]
    assert clamp_all([-7, 2], -5, 5) == [-5, 2]
    assert clamp_all([11], 0, 10) == [10]
    assert clamp_all([-5, 5, 50], 0, 10) == [0, 5, 10]
