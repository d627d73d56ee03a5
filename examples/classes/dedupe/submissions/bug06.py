def dedupe(lst):
    out = []
    for i in range(1, len(lst)):
        if lst[i] not in out:
            out.append(lst[i])
    return out
