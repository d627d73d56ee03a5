def no_newline(x):
    if x:
        return 1
    return 2