import re

UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}


def parse(text):
    text = text.replace(" ", "")
    m = re.fullmatch(r"(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?", text)
    if not text or not m:
        raise ValueError(text)
    return sum(int(g or 0) * UNITS[u] for g, u in zip(m.groups(), "dhms"))


def format_duration(seconds):
    if seconds < 0:
        raise ValueError("negative")
    d, rest = divmod(seconds, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    return "%dd%dh%dm%ds" % (d, h, m, s)
