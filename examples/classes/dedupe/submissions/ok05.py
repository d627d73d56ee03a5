def dedupe(lst):
    out = []
    i = 0
    while i < len(lst):
        if lst[i] not in out:
            out.append(lst[i])
        i += 1
    return out
