def banner(title):
    text = """
    +--------+
    | banner |
    +--------+"""
    raw = r"C:\path\to\file"
    joined = "a" "b" 'c'
    data = b"bytes"
    if title:
        text = text.replace("banner", title)
    return text, raw, joined, data


def escape(s):
    return s.replace("\\", "\\\\").replace('"', '\\"')
