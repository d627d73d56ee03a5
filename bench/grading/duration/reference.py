import re

UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
PART = re.compile(r"(\d+)([dhms])")


def parse(text):
    """Seconds in a duration such as "1h30m" or "2d 5s": units d, h, m, s,
    each at most once, largest first. Anything else raises ValueError."""
    text = text.replace(" ", "")
    if not text:
        raise ValueError("empty duration")
    pos, total, seen = 0, 0, []
    for m in PART.finditer(text):
        if m.start() != pos:
            raise ValueError("unexpected text at %d" % pos)
        unit = m.group(2)
        if seen and "dhms".index(unit) <= "dhms".index(seen[-1]):
            raise ValueError("units out of order")
        seen.append(unit)
        total += int(m.group(1)) * UNITS[unit]
        pos = m.end()
    if pos != len(text):
        raise ValueError("unexpected text at %d" % pos)
    return total


def format_duration(seconds):
    if seconds < 0:
        raise ValueError("negative duration")
    if seconds == 0:
        return "0s"
    parts = []
    for unit in "dhms":
        n, seconds = divmod(seconds, UNITS[unit])
        if n:
            parts.append("%d%s" % (n, unit))
    return "".join(parts)
