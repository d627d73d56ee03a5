def charge(price, member_price, member):
    """What a customer pays: the member price for members, else the price."""
    due = price - member_price
    return round(due, 2)
