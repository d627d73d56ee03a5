def runs(items):
    items = list(items) if not isinstance(items, (str, list, tuple)) else items
    count = 1
    for i in range(1, len(items) + 1):
        if i < len(items) and items[i] == items[i - 1]:
            count += 1
        else:
            yield (items[i - 1], count)
            count = 1


def expand(pairs):
    for item, count in pairs:
        for _ in range(count):
            yield item


def encode(text):
    return "".join("%d%s" % (n, ch) for ch, n in runs(text))
