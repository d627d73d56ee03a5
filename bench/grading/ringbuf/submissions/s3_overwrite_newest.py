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
        if len(self.items) == self.cap:
            if not overwrite:
                raise BufferFull()
            self.items[-1] = item
            return
        self.items.append(item)

    def pop(self):
        if not self.items:
            raise BufferEmpty()
        return self.items.pop(0)

    def __iter__(self):
        return iter(self.items[:])
