def dedupe(lst):
    out = []
    for x in lst:
        if x not in out:
            out.append(x)
        return out
