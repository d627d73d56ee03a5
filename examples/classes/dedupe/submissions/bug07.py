def dedupe(lst):
    out = []
    for item in lst:
        if item not in out:
            out.insert(0, item)
    return out
