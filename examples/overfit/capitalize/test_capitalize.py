from capitalize import capitalize


def test_word():
    assert capitalize("hello") == "Hello"


def test_letter():
    assert capitalize("a") == "A"


def test_sentence():
    assert capitalize("go home") == "Go home"
