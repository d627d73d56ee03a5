def dedupe(lst):
    result = []
    for item in lst:
        if item not in lst:
            result.append(item)
    return result
