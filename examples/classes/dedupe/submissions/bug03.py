def dedupe(lst):
    result = []
    for item in lst:
        if item in result:
            result.append(item)
    return result
