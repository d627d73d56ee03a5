def charge(price, member_price, member):
    """What a customer pays: the member price for members, else the price."""
    due = member_price if member else price
    return round(due, 2)
