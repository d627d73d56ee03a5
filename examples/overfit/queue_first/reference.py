class Queue:
    """A first-in, first-out queue."""

    def __init__(self, items=None):
        self.items = list(items or [])

    def add(self, x):
        self.items.append(x)

    def first(self):
        """The item that has waited longest, or None."""
        if not self.items:
            return None
        return self.items[0]
