def is_prime(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True


def primes():
    """Every prime, in order, without end."""
    n = 2
    while True:
        if is_prime(n):
            yield n
        n += 1


def factorize(n):
    """The prime factors of n >= 2 as a dict prime -> exponent; anything
    smaller (or not an int) raises ValueError."""
    if not isinstance(n, int) or n < 2:
        raise ValueError("need an integer >= 2")
    out = {}
    for p in primes():
        if p * p > n:
            break
        while n % p == 0:
            out[p] = out.get(p, 0) + 1
            n //= p
    if n > 1:
        out[n] = out.get(n, 0) + 1
    return out
