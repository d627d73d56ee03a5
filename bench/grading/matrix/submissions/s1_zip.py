def shape(m):
    if len(m) == 0 or len(m[0]) == 0:
        raise ValueError("empty")
    if len({len(r) for r in m}) != 1:
        raise ValueError("ragged")
    return len(m), len(m[0])


def transpose(m):
    shape(m)
    return tuple(zip(*m))


def multiply(a, b):
    if shape(a)[1] != shape(b)[0]:
        raise ValueError("mismatch")
    cols = transpose(b)
    return tuple(tuple(sum(x * y for x, y in zip(row, col)) for col in cols) for row in a)


def identity(n):
    return tuple(tuple(int(i == j) for j in range(n)) for i in range(n))
