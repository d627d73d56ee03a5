def dedupe(lst):
    seen = set()
    out = []
    for x in lst:
        if x not in seen:
            out.append(x)
    return out
