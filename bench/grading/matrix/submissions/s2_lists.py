def shape(m):
    if not m or not m[0]:
        raise ValueError("empty")
    for row in m:
        if len(row) != len(m[0]):
            raise ValueError("ragged")
    return (len(m), len(m[0]))


def transpose(m):
    rows, cols = shape(m)
    return [[m[r][c] for r in range(rows)] for c in range(cols)]


def multiply(a, b):
    if shape(a)[1] != shape(b)[0]:
        raise ValueError("mismatch")
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))) for i in range(len(a)))


def identity(n):
    return tuple(tuple(1 if i == j else 0 for j in range(n)) for i in range(n))
