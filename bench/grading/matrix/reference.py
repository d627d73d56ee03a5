def shape(m):
    """(rows, columns) of a matrix given as a sequence of rows; ragged
    rows or an empty matrix raise ValueError."""
    if not m or not m[0]:
        raise ValueError("empty matrix")
    cols = len(m[0])
    for row in m:
        if len(row) != cols:
            raise ValueError("ragged rows")
    return (len(m), cols)


def transpose(m):
    rows, cols = shape(m)
    return tuple(tuple(m[r][c] for r in range(rows)) for c in range(cols))


def multiply(a, b):
    ar, ac = shape(a)
    br, bc = shape(b)
    if ac != br:
        raise ValueError("shapes do not match")
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(ac)) for j in range(bc)) for i in range(ar))


def identity(n):
    return tuple(tuple(1 if i == j else 0 for j in range(n)) for i in range(n))
