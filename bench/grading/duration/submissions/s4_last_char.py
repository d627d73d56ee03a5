UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}


def parse(text):
    if text.rstrip()[-1] not in UNITS:
        raise ValueError(text)
    total = 0
    last = None
    for piece in text.replace(" ", "").replace("d", "d ").replace("h", "h ").replace("m", "m ").replace("s", "s ").split():
        unit = piece[-1]
        if unit not in UNITS:
            raise ValueError(piece)
        if last is not None and UNITS[unit] >= UNITS[last]:
            raise ValueError("order")
        last = unit
        total += int(piece[:-1]) * UNITS[unit]
    if last is None:
        raise ValueError("empty")
    return total


def format_duration(seconds):
    if seconds < 0:
        raise ValueError("negative")
    parts = []
    for unit in "dhms":
        n, seconds = divmod(seconds, UNITS[unit])
        if n:
            parts.append("%d%s" % (n, unit))
    return "".join(parts) or "0s"
