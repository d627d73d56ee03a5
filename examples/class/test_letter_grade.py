"""The class's suite as a pytest file (tests.json as the class would
write it): repair batch --tests examples/class/test_letter_grade.py
examples/class/submissions runs every submission as "solution"."""
import pytest

from solution import letter_grade


@pytest.mark.parametrize("score, grade", [
    (0, "F"), (45, "F"), (59, "F"), (59.5, "F"),
    (60, "D"), (65, "D"), (69, "D"),
    (70, "C"), (75, "C"), (79, "C"),
    (80, "B"), (85.5, "B"), (89, "B"),
    (90, "A"), (95, "A"), (100, "A"),
])
def test_grade(score, grade):
    assert letter_grade(score) == grade


@pytest.mark.parametrize("score", [-1, 101])
def test_out_of_range(score):
    with pytest.raises(ValueError):
        letter_grade(score)
