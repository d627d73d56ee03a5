from collections import Counter


class OutOfStock(Exception):
    pass


class Inventory:
    def __init__(self):
        self.stock = Counter()

    def add(self, name, qty=1):
        if qty < 1:
            raise ValueError(qty)
        self.stock[name] += qty

    def remove(self, name, qty=1):
        if self.stock[name] < qty:
            raise OutOfStock(name)
        self.stock[name] -= qty
        self.stock += Counter()  # drops the zeros

    def count(self, name):
        return self.stock[name]

    def snapshot(self):
        return dict(self.stock)

    def names(self):
        return {n for n in self.stock if self.stock[n] > 0}
