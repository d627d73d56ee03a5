def runs(items):
    items = list(items)
    out = []
    i = 0
    while i < len(items):
        j = i
        while j < len(items) and items[j] == items[i]:
            j += 1
        out.append((items[i], j - i))
        i = j
    return iter(out)


def expand(pairs):
    for item, count in pairs:
        if count < 0:
            raise ValueError("negative")
        for _ in range(count):
            yield item


def encode(text):
    return "".join("%d%s" % (n, ch) for ch, n in runs(text))
