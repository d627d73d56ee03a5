class DecodeError(Exception):
    pass


def decode_name(data):
    """The ASCII text of a list of byte values, stripped; DecodeError when empty or not ASCII."""
    if not data:
        raise DecodeError("empty")
    try:
        text = bytes(data).decode("ascii")
    except UnicodeError as exc:
        raise DecodeError(str(exc)) from exc
    return text.strip()
