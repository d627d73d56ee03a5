def countdown(n, k):
    """The k-th number (from 0) of the countdown n, n - 1, ..., 1."""
    return n - k
