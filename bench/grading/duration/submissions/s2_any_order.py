import re


def parse(text):
    text = text.replace(" ", "")
    if not re.fullmatch(r"(\d+[dhms])+", text):
        raise ValueError(text)
    mult = {"d": 86400, "h": 3600, "m": 60, "s": 1}
    return sum(int(n) * mult[u] for n, u in re.findall(r"(\d+)([dhms])", text))


def format_duration(seconds):
    if seconds < 0:
        raise ValueError("negative")
    if seconds == 0:
        return "0s"
    out = ""
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        n, seconds = divmod(seconds, size)
        if n:
            out += "%d%s" % (n, unit)
    return out
