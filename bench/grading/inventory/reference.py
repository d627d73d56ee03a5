class OutOfStock(Exception):
    """Removing more of an item than the inventory holds."""


class Inventory:
    def __init__(self):
        self._items = {}

    def add(self, name, qty=1):
        if qty <= 0:
            raise ValueError("quantity must be positive")
        self._items[name] = self._items.get(name, 0) + qty

    def remove(self, name, qty=1):
        have = self._items.get(name, 0)
        if qty > have:
            raise OutOfStock(name)
        if qty == have:
            del self._items[name]
        else:
            self._items[name] = have - qty

    def count(self, name):
        return self._items.get(name, 0)

    def snapshot(self):
        return dict(self._items)

    def names(self):
        return set(self._items)
