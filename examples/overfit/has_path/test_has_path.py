from has_path import has_path


def test_direct():
    assert has_path({"a": ["b"], "b": []}, "a", "b")


def test_chain():
    assert has_path({"a": ["b"], "b": ["c"], "c": []}, "a", "c")


def test_none():
    assert not has_path({"a": [], "b": ["a"]}, "a", "b")
