import middle

def test_one():
    assert middle.middle(2, 1, 3) == 2


def test_one():
    assert middle.middle(1, 2, 3) == 2
