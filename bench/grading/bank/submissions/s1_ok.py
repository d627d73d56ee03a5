class InsufficientFunds(Exception):
    def __init__(self, balance, amount):
        Exception.__init__(self, balance, amount)
        self.balance, self.amount = balance, amount


class Account:
    def __init__(self, owner, balance=0):
        if balance < 0:
            raise ValueError(balance)
        self.owner, self.balance, self.history = owner, balance, []

    def _check(self, amount):
        if not amount > 0:
            raise ValueError(amount)

    def deposit(self, amount):
        self._check(amount)
        self.history.append(("deposit", amount))
        self.balance = self.balance + amount
        return self.balance

    def withdraw(self, amount):
        self._check(amount)
        if self.balance - amount < 0:
            raise InsufficientFunds(self.balance, amount)
        self.history.append(("withdraw", amount))
        self.balance = self.balance - amount
        return self.balance

    def transfer(self, other, amount):
        self.withdraw(amount)
        other.deposit(amount)
