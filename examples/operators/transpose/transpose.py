def transpose(m):
    """The transpose of the matrix m (a non-empty list of equal rows)."""
    return [[m[j][i] for i in range(len(m))] for j in range(len(m[0]))]
