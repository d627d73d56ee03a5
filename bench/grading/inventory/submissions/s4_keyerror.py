class OutOfStock(Exception):
    pass


class Inventory:
    def __init__(self):
        self.items = {}

    def add(self, name, qty=1):
        if qty <= 0:
            raise ValueError("bad quantity")
        self.items[name] = self.items.get(name, 0) + qty

    def remove(self, name, qty=1):
        if self.items[name] < qty:
            raise OutOfStock(name)
        self.items[name] -= qty
        if self.items[name] == 0:
            del self.items[name]

    def count(self, name):
        return self.items.get(name, 0)

    def snapshot(self):
        return dict(self.items)

    def names(self):
        return set(self.items.keys())
