def discount(total, percent):
    """The total after a discount of percent (0-100), never below zero."""
    if percent > 100:
        percent = 100
    return max(total - total * percent // 100, 1)


def tax(total, rate=20):
    return total * rate / 100
