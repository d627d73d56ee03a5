SIZES = [("d", 86400), ("h", 3600), ("m", 60), ("s", 1)]


def parse(text):
    text = text.replace(" ", "")
    if text == "":
        raise ValueError("empty")
    total, number, last = 0, "", -1
    for ch in text:
        if ch.isdigit():
            number += ch
            continue
        units = [u for u, _ in SIZES]
        if ch not in units or number == "":
            raise ValueError(text)
        i = units.index(ch)
        if i <= last:
            raise ValueError(text)
        last = i
        total += int(number) * SIZES[i][1]
        number = ""
    if number:
        raise ValueError(text)
    return total


def format_duration(seconds):
    if seconds < 0:
        raise ValueError(seconds)
    out = ""
    for unit, size in SIZES:
        if seconds >= size:
            out += str(seconds // size) + unit
            seconds %= size
    return out or "0s"
