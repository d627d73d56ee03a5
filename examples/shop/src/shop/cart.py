from . import pricing


class Cart:
    def __init__(self):
        self.items = []

    def add(self, name, price, qty=1):
        self.items.append((name, price, qty))

    def total(self, percent=0):
        subtotal = 0
        for _, price, qty in self.items:
            subtotal += price * qty
        return pricing.discount(subtotal, percent)
