def is_prime(n):
    if n < 2:
        return False
    for d in range(2, n):
        if n % d == 0:
            return False
    return True


def primes():
    return [n for n in range(2, 200) if is_prime(n)]


def factorize(n):
    if not isinstance(n, int) or n < 2:
        raise ValueError("bad")
    out = {}
    for p in primes():
        while n % p == 0:
            out[p] = out.get(p, 0) + 1
            n //= p
    if n > 1:
        out[n] = 1
    return out
