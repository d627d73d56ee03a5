def shape(m):
    if not m or not m[0]:
        raise ValueError("empty")
    return (len(m), len(m[0]))


def transpose(m):
    rows, cols = shape(m)
    return tuple(tuple(m[r][c] for r in range(rows)) for c in range(cols))


def multiply(a, b):
    ar, ac = shape(a)
    br, bc = shape(b)
    if ac != br:
        raise ValueError("mismatch")
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(ac)) for j in range(bc)) for i in range(ar))


def identity(n):
    return tuple(tuple(1 if i == j else 0 for j in range(n)) for i in range(n))
