class BufferFull(Exception):
    pass


class BufferEmpty(Exception):
    pass


class RingBuffer:
    def __init__(self, capacity):
        if capacity < 1:
            raise ValueError("capacity")
        self.cap = capacity
        self.items = []

    def __len__(self):
        return len(self.items)

    def push(self, item, overwrite=False):
        if len(self.items) == self.cap and not overwrite:
            raise BufferFull()
        if len(self.items) == self.cap:
            del self.items[0]
        self.items.append(item)

    def pop(self):
        return self.items.pop(0)

    def __iter__(self):
        yield from self.items
