class OutOfStock(ValueError):
    pass


class Inventory:
    def __init__(self):
        self.items = {}

    def add(self, name, qty=1):
        if qty <= 0:
            raise ValueError("bad quantity")
        self.items[name] = self.items.get(name, 0) + qty

    def remove(self, name, qty=1):
        left = self.items.get(name, 0) - qty
        if left < 0:
            raise OutOfStock(name)
        if left:
            self.items[name] = left
        else:
            del self.items[name]

    def count(self, name):
        return self.items.get(name, 0)

    def snapshot(self):
        return self.items

    def names(self):
        return set(self.items)
