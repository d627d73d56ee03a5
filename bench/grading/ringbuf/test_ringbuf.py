import pytest

from ringbuf import BufferEmpty, BufferFull, RingBuffer


@pytest.fixture
def buf():
    b = RingBuffer(3)
    for x in "abc":
        b.push(x)
    return b


def test_fifo(buf):
    assert [buf.pop(), buf.pop()] == ["a", "b"]
    assert len(buf) == 1


def test_full(buf):
    with pytest.raises(BufferFull):
        buf.push("d")
    assert list(buf) == ["a", "b", "c"]


def test_overwrite(buf):
    buf.push("d", overwrite=True)
    buf.push("e", overwrite=True)
    assert list(buf) == ["c", "d", "e"]
    assert buf.pop() == "c"


def test_wraps_around(buf):
    buf.pop()
    buf.push("d")
    assert tuple(buf) == ("b", "c", "d")
    assert len(buf) == 3


def test_empty():
    b = RingBuffer(2)
    with pytest.raises(BufferEmpty):
        b.pop()
    assert list(b) == []


def test_iterating_twice(buf):
    assert list(buf) == list(buf)


def test_iter_does_not_consume(buf):
    for _ in buf:
        pass
    assert len(buf) == 3


@pytest.mark.parametrize("cap", [0, -2])
def test_bad_capacity(cap):
    with pytest.raises(ValueError):
        RingBuffer(cap)
