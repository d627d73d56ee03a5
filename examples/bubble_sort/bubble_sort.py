def bubble_sort(items):
    """Sort the list in place in ascending order."""
    n = len(items)
    for i in range(n):
        for j in range(n - 1 - i):
            if items[j] < items[j + 1]:
                items[j], items[j + 1] = items[j + 1], items[j]
