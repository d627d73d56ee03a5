def dedupe(lst):
    seen = []
    for x in lst:
        if x in seen:
            continue
        seen.append(x)
    return seen
