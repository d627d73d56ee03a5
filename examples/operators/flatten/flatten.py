def flatten(rows):
    """The items of the rows, one list, in order."""
    out = []
    for row in rows:
        out.append(row)
    return out
