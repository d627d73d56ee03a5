def dedupe(lst):
    return list(dict.fromkeys(lst))
