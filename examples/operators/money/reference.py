class Money:
    def __init__(self, cents):
        self.cents = cents

    def plus(self, cents):
        return type(self)(self.cents + cents)


class Euro(Money):
    pass


def money(cents, extra, euro):
    """The kind and cents of Money(cents), or Euro(cents) when euro, plus extra."""
    m = (Euro if euro else Money)(cents).plus(extra)
    return type(m).__name__ + " " + str(m.cents)
