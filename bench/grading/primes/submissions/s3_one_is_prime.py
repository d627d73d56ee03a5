def is_prime(n):
    if n < 2:
        return n == 1
    return all(n % d for d in range(2, n))


def primes():
    n = 1
    while True:
        n += 1
        if is_prime(n):
            yield n


def factorize(n):
    if isinstance(n, float) or n < 2:
        raise ValueError("bad")
    out = {}
    d = 2
    while n > 1:
        if n % d == 0:
            out[d] = out.get(d, 0) + 1
            n //= d
        else:
            d += 1
    return out
