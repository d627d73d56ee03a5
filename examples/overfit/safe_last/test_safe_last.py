from safe_last import safe_last


def test_pair():
    assert safe_last([1, 2]) == 2


def test_single():
    assert safe_last([9]) == 9


def test_words():
    assert safe_last(["a", "b", "c"]) == "c"
