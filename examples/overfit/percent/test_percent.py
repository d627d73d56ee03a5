from percent import percent


def test_half():
    assert percent(5, 10) == 50


def test_all():
    assert percent(1, 1) == 100


def test_third():
    assert percent(1, 3) == 33
