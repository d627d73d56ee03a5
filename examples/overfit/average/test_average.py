from average import average


def test_pair():
    assert average([2, 4]) == 3


def test_three():
    assert average([1, 2, 6]) == 3


def test_single():
    assert average([5]) == 5
