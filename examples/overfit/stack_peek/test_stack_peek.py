from stack_peek import Stack


def test_peek_two():
    s = Stack()
    s.push(1)
    s.push(2)
    assert s.peek() == 2


def test_peek_one():
    s = Stack()
    s.push(5)
    assert s.peek() == 5


def test_peek_words():
    s = Stack()
    s.push("a")
    s.push("b")
    s.push("c")
    assert s.peek() == "c"
