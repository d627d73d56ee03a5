def count_long(ws, n):
    """How many of the words ws have more than n letters."""
    return sum(1 for w in ws if w > n)
