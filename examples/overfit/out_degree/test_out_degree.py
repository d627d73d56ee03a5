from out_degree import out_degree


def test_two():
    assert out_degree({"a": ["b", "c"], "b": []}, "a") == 2


def test_one():
    assert out_degree({"a": ["b"], "b": ["a"]}, "b") == 1


def test_three():
    assert out_degree({"x": ["y", "z", "w"]}, "x") == 3
