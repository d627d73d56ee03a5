def bom(x):
    return x + 1


value = bom(1)
