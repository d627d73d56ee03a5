import pytest

from stats import mean, median, stdev, summary

DATA = [2.5, 3.5, 1.0, 4.0, 9.0]
EXPECTED = {
    "mean": 4.0,
    "median": 3.5,
    "stdev": 3.0207615,
}


def test_mean():
    assert mean(DATA) == pytest.approx(EXPECTED["mean"])
    assert mean([1, 2]) == 1.5


@pytest.mark.parametrize("xs, want", [([5], 5), ([3, 1, 2], 2), ([4, 1, 3, 2], 2.5), (DATA, EXPECTED["median"])])
def test_median(xs, want):
    assert median(xs) == pytest.approx(want)


def test_median_does_not_sort_input():
    xs = [3, 1, 2]
    median(xs)
    assert xs == [3, 1, 2]


def test_stdev():
    assert stdev(DATA) == pytest.approx(EXPECTED["stdev"], rel=1e-6)
    assert stdev([1, 1, 1]) == 0


@pytest.mark.parametrize("fn, xs", [(mean, []), (median, []), (stdev, []), (stdev, [1.0])])
def test_too_few(fn, xs):
    with pytest.raises(ValueError):
        fn(xs)


def test_summary():
    s = summary([0.1, 0.2, 0.3])
    assert set(s) == {"n", "mean", "median", "min", "max"}
    assert s["n"] == 3
    assert s["mean"] == pytest.approx(0.2)
    assert (s["min"], s["max"]) == (0.1, 0.3)
