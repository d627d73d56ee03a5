import pytest

from stack import Stack


def test_empty_length():
    assert len(Stack()) == 0


def test_push_grows():
    s = Stack()
    s.push(1)
    s.push(2)
    assert len(s) == 2


def test_peek_is_last_pushed():
    s = Stack()
    s.push("a")
    s.push("b")
    assert s.peek() == "b"


def test_peek_empty():
    assert Stack().peek() is None


def test_pop_single():
    s = Stack()
    s.push(42)
    assert s.pop() == 42
    assert len(s) == 0


def test_pop_is_lifo():
    s = Stack()
    for x in [1, 2, 3]:
        s.push(x)
    assert [s.pop(), s.pop(), s.pop()] == [3, 2, 1]


def test_pop_after_peek():
    s = Stack()
    s.push(1)
    s.push(2)
    assert s.pop() == s.peek() + 1


def test_pop_empty_raises():
    with pytest.raises(IndexError):
        Stack().pop()
