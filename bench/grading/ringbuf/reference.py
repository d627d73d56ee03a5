class BufferFull(Exception):
    pass


class BufferEmpty(Exception):
    pass


class RingBuffer:
    """A first-in first-out buffer of fixed capacity."""

    def __init__(self, capacity):
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self._data = [None] * capacity
        self._start = 0
        self._size = 0

    def __len__(self):
        return self._size

    def push(self, item, overwrite=False):
        cap = len(self._data)
        if self._size == cap:
            if not overwrite:
                raise BufferFull()
            self._data[self._start] = item
            self._start = (self._start + 1) % cap
            return
        self._data[(self._start + self._size) % cap] = item
        self._size += 1

    def pop(self):
        if self._size == 0:
            raise BufferEmpty()
        item = self._data[self._start]
        self._start = (self._start + 1) % len(self._data)
        self._size -= 1
        return item

    def __iter__(self):
        for i in range(self._size):
            yield self._data[(self._start + i) % len(self._data)]
