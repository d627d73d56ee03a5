def runs(items):
    prev, count = None, 0
    for x in items:
        if count and x == prev:
            count += 1
            continue
        if count:
            yield [prev, count]
        prev, count = x, 1
    if count:
        yield [prev, count]


def expand(pairs):
    for item, count in pairs:
        if count < 0:
            raise ValueError("negative")
        for _ in range(count):
            yield item


def encode(text):
    return "".join("%d%s" % (n, ch) for ch, n in runs(text))
