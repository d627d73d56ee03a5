class DecodeError(Exception):
    pass


def decode_name(data):
    """The ASCII text of a list of byte values, stripped; DecodeError when empty or not ASCII."""
    if not data:
        raise DecodeError("empty")
    text = bytes(data).decode("ascii")
    return text.strip()
