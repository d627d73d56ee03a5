from itertools import groupby


def runs(items):
    for key, group in groupby(items):
        yield key, sum(1 for _ in group)


def expand(pairs):
    for item, count in pairs:
        if count < 0:
            raise ValueError(count)
        yield from [item] * count


def encode(text):
    return "".join(f"{n}{c}" for c, n in runs(text))
