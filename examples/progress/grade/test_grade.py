from grade import letter


def test_top():
    assert letter(100) == "A"
    assert letter(90) == "A"


def test_bottom():
    assert letter(0) == "F"


def test_boundaries():
    assert letter(95) == "A"
    assert letter(85) == "B"
    assert letter(80) == "B"
    assert letter(75) == "C"
    assert letter(70) == "C"
    assert letter(65) == "D"
    assert letter(60) == "D"
    assert letter(59) == "F"
