import pytest

from gradebook import Gradebook, UnknownStudent

WEIGHTS = {"homework": 0.3, "exam": 0.7}


@pytest.fixture
def book():
    b = Gradebook(WEIGHTS)
    b.record("ann", "homework", 80)
    b.record("ann", "homework", 90)
    b.record("ann", "exam", 70)
    b.record("bo", "exam", 95)
    return b


def test_average(book):
    assert book.average("ann") == pytest.approx(0.3 * 85 + 0.7 * 70)


def test_missing_category_counts_zero(book):
    assert book.average("bo") == pytest.approx(66.5)


def test_report(book):
    assert book.report() == {"ann": 74.5, "bo": 66.5}


def test_top(book):
    assert book.top() == "ann"
    book.record("bo", "homework", 100)
    assert book.top() == "bo"


def test_unknown_student(book):
    with pytest.raises(UnknownStudent):
        book.average("cy")
    with pytest.raises(KeyError):
        book.average("cy")


@pytest.mark.parametrize("category, score", [("quiz", 50), ("exam", 101), ("exam", -1)])
def test_bad_record(book, category, score):
    with pytest.raises(ValueError):
        book.record("ann", category, score)


def test_bad_weights():
    with pytest.raises(ValueError):
        Gradebook({"exam": 0.5, "homework": 0.4})


def test_weights_copied():
    w = dict(WEIGHTS)
    b = Gradebook(w)
    w["exam"] = 0
    b.record("x", "exam", 100)
    assert b.average("x") == pytest.approx(70)
