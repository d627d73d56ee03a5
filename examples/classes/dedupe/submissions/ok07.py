def dedupe(items):
    acc = []
    for elem in items:
        if elem not in acc:
            acc.append(elem)
    return acc
