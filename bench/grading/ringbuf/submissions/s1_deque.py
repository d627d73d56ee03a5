from collections import deque


class BufferFull(Exception):
    pass


class BufferEmpty(Exception):
    pass


class RingBuffer:
    def __init__(self, capacity):
        if capacity <= 0:
            raise ValueError(capacity)
        self.cap = capacity
        self.q = deque()

    def __len__(self):
        return len(self.q)

    def push(self, item, overwrite=False):
        if len(self.q) >= self.cap:
            if not overwrite:
                raise BufferFull(item)
            self.q.popleft()
        self.q.append(item)

    def pop(self):
        if not self.q:
            raise BufferEmpty
        return self.q.popleft()

    def __iter__(self):
        return iter(list(self.q))
