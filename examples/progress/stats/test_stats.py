from stats import stats


def test_single():
    assert stats([3]) == (3, 3, 3.0)
    assert stats([-2]) == (-2, -2, -2.0)


def test_several():
    assert stats([1, 2])[2] == 1.5
    assert stats([4, 1, 7])[0] == 1
    assert stats([4, 1, 7])[1] == 7
    assert stats([2, 9, -3, 0]) == (-3, 9, 2.0)
