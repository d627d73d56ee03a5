from most_common import most_common


def test_repeat():
    assert most_common(["a", "b", "a"]) == "a"


def test_single():
    assert most_common(["z"]) == "z"


def test_tie():
    assert most_common(["x", "y"]) == "x"
