from min_gap import min_gap


def test_three():
    assert min_gap([10, 1, 4]) == 3


def test_two():
    assert min_gap([5, 8]) == 3


def test_many():
    assert min_gap([9, 2, 7, 3]) == 1
