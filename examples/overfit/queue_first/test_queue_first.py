from queue_first import Queue


def test_first_of_two():
    q = Queue()
    q.add("x")
    q.add("y")
    assert q.first() == "x"


def test_first_of_one():
    q = Queue([3])
    assert q.first() == 3


def test_first_after_add():
    q = Queue([1, 2])
    q.add(3)
    assert q.first() == 1
