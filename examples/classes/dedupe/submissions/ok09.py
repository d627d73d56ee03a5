def dedupe(items):
    met = []
    for v in items:
        if v in met:
            continue
        met.append(v)
    return met
