def dedupe(lst):
    return sorted(set(lst))
