def json_literal(v):
    """The JSON text of a scalar: null, true, false, a number or a quoted string."""
    if v is None:
        return "None"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return '"' + v + '"'
    return str(v)
