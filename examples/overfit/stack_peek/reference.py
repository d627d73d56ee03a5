class Stack:
    """A last-in, first-out stack."""

    def __init__(self):
        self.items = []

    def push(self, x):
        self.items.append(x)

    def peek(self):
        """The top item, or None when the stack is empty."""
        if not self.items:
            return None
        return self.items[-1]
