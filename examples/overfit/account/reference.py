class Account:
    """A bank account."""

    def __init__(self, balance=0):
        self.balance = balance
        self.history = []

    def deposit(self, amount):
        self.balance += amount
        self.history.append(amount)

    def last_deposit(self):
        """The last amount deposited, or 0 before any."""
        if not self.history:
            return 0
        return self.history[-1]
