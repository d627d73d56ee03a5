from top_k import top_k


def test_two():
    assert top_k([4, 1, 3], 2) == [4, 3]


def test_one():
    assert top_k([5, 2], 1) == [5]


def test_none():
    assert top_k([], 0) == []
