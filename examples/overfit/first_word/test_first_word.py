from first_word import first_word


def test_two_words():
    assert first_word("hello world") == "hello"


def test_one_word():
    assert first_word("one") == "one"


def test_spaces():
    assert first_word("  big   cat ") == "big"
