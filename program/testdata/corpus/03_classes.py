from dataclasses import dataclass, field


@dataclass
class Account:
    """A bank account."""

    owner: str
    balance: float = 0.0
    history: list = field(default_factory=list)

    def deposit(self, amount: float) -> None:
        if amount <= 0:
            raise ValueError("amount must be positive")
        self.balance += amount
        self.history.append(("deposit", amount))

    def withdraw(self, amount):
        if amount > self.balance:
            raise ValueError("insufficient funds")
        self.balance -= amount
        self.history.append(("withdraw", amount))
        return self.balance

    @property
    def empty(self):
        return self.balance == 0

    @staticmethod
    def fee(amount, rate=0.01):
        return round(amount * rate, 2)


class Savings(Account):
    rate = 0.02

    def interest(self):
        return self.balance * self.rate
