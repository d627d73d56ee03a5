from remove_extras import remove_extras


def test_repeats():
    assert remove_extras([1, 2, 1]) == [1, 2]


def test_none():
    assert remove_extras([3, 4]) == [3, 4]


def test_all_same():
    assert remove_extras([7, 7, 7]) == [7]
