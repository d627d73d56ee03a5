def dedupe(lst):
    return list(set(lst))
