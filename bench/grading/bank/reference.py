class InsufficientFunds(Exception):
    def __init__(self, balance, amount):
        super().__init__("balance %d, asked for %d" % (balance, amount))
        self.balance = balance
        self.amount = amount


class Account:
    def __init__(self, owner, balance=0):
        if balance < 0:
            raise ValueError("negative opening balance")
        self.owner = owner
        self.balance = balance
        self.history = []

    def deposit(self, amount):
        if amount <= 0:
            raise ValueError("deposit must be positive")
        self.balance += amount
        self.history.append(("deposit", amount))
        return self.balance

    def withdraw(self, amount):
        if amount <= 0:
            raise ValueError("withdrawal must be positive")
        if amount > self.balance:
            raise InsufficientFunds(self.balance, amount)
        self.balance -= amount
        self.history.append(("withdraw", amount))
        return self.balance

    def transfer(self, other, amount):
        self.withdraw(amount)
        other.deposit(amount)
