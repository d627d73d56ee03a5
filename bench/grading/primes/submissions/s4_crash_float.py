def is_prime(n):
    if n < 2:
        return False
    return all(n % d for d in range(2, int(n ** 0.5) + 1))


def primes():
    n = 2
    while True:
        if is_prime(n):
            yield n
        n += 1


def factorize(n):
    if n < 2:
        raise ValueError("need n >= 2")
    out = {}
    for d in range(2, n + 1):
        while n % d == 0:
            out[d] = out.get(d, 0) + 1
            n //= d
    return out
