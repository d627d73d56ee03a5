def split_once(items, sep):
    """items split after the first sep: the part through it, then the rest
    (no rest when nothing follows)."""
    return list(_split(items, sep))


def _split(items, sep):
    buf = []
    it = iter(items)
    for x in it:
        buf.append(x)
        if x == sep:
            yield buf
            yield list(it)
            return
    if buf:
        yield buf
