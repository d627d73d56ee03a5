import pytest

from wordcount import counts, top, vocabulary, words

TEXT = "The cat sat. The cat ran! A dog sat, and the DOG ran."


@pytest.fixture
def text():
    return TEXT


def test_words(text):
    assert words(text)[:4] == ["the", "cat", "sat", "the"]
    assert len(words(text)) == 13


def test_words_only_punctuation():
    assert words("... !! ?") == []


def test_counts(text):
    assert counts(text) == {"the": 3, "cat": 2, "sat": 2, "ran": 2, "a": 1, "dog": 2, "and": 1}


def test_counts_empty():
    assert counts("") == {}


@pytest.mark.parametrize("n, want", [
    (1, [("the", 3)]),
    (3, [("the", 3), ("cat", 2), ("dog", 2)]),
    (20, [("the", 3), ("cat", 2), ("dog", 2), ("ran", 2), ("sat", 2), ("a", 1), ("and", 1)]),
])
def test_top(text, n, want):
    assert top(text, n) == want


def test_top_bad_n(text):
    with pytest.raises(ValueError):
        top(text, 0)


def test_vocabulary(text):
    v = vocabulary(text)
    assert v == frozenset({"the", "cat", "sat", "ran", "a", "dog", "and"})
    assert isinstance(v, frozenset)
