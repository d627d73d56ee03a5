import re


def first_word_length(text):
    if (m := re.match(r"\w+", text)) is not None:
        return len(m.group(0))
    return 0


def read_chunks(chunks):
    out = []
    while (chunk := next(chunks, None)) is not None:
        out.append(chunk)
    return out


def filtered(xs):
    return [y for x in xs if (y := x * 2) > 3]
