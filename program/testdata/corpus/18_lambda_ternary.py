square = lambda x: x * x
pick = lambda a, b: a if a > b else b


def sign(x):
    return 1 if x > 0 else (-1 if x < 0 else 0)


def apply_all(fs, x):
    return [f(x) for f in fs if callable(f)]


def compose(*fs):
    return lambda x: x if not fs else fs[0](compose(*fs[1:])(x))


def bits(n):
    return n & 0xFF | (n >> 8) ^ ~n << 2


def power(a, b):
    a **= 2
    b //= 3
    return -a ** b % 7
