def runs(items):
    """Yields (item, count) for each run of equal items, lazily: items
    may be any iterable, even an endless one."""
    it = iter(items)
    try:
        current = next(it)
    except StopIteration:
        return
    count = 1
    for x in it:
        if x == current:
            count += 1
        else:
            yield (current, count)
            current, count = x, 1
    yield (current, count)


def expand(pairs):
    """The inverse of runs: yields each item count times; a negative count
    raises ValueError."""
    for item, count in pairs:
        if count < 0:
            raise ValueError("negative count")
        for _ in range(count):
            yield item


def encode(text):
    return "".join("%d%s" % (n, ch) for ch, n in runs(text))
