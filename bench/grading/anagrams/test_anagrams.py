import pytest

from anagrams import anagram_sets, groups, is_anagram, signature

WORDS = ["listen", "silent", "enlist", "google", "Inlets", "banana", "stone", "tones", "notes", "onset", "seton"]


def test_signature():
    assert signature("Stone") == ("e", "n", "o", "s", "t")
    assert signature("") == ()


def test_groups():
    g = groups(["ab", "ba", "c"])
    assert g == {("a", "b"): {"ab", "ba"}, ("c",): {"c"}}


def test_groups_keeps_case():
    assert groups(["Ab", "bA"]) == {("a", "b"): {"Ab", "bA"}}


def test_anagram_sets():
    assert anagram_sets(WORDS) == {
        frozenset({"listen", "silent", "enlist", "Inlets"}),
        frozenset({"stone", "tones", "notes", "onset", "seton"}),
    }


def test_no_sets():
    assert anagram_sets(["a", "b"]) == set()


@pytest.mark.parametrize("a, b, want", [
    ("listen", "silent", True), ("Dusty", "study", True), ("abc", "abd", False),
    ("same", "same", False), ("Same", "same", False), ("ab", "abb", False),
])
def test_is_anagram(a, b, want):
    assert is_anagram(a, b) == want


@pytest.mark.parametrize("a, b", [("", "a"), ("a", "")])
def test_is_anagram_empty(a, b):
    with pytest.raises(ValueError):
        is_anagram(a, b)
