def dedupe(items):
    res = []
    k = 0
    while k < len(items):
        if items[k] not in res:
            res.append(items[k])
        k += 1
    return res
