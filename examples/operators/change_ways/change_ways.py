def change_ways(amount, coins):
    """In how many ways coins (each usable any number of times) make amount."""
    if amount == 0:
        return 1
    if amount < 0:
        return 0
    return change_ways(amount - coins[0], coins) + change_ways(amount, coins[1:])
