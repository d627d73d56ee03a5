def leading_ints(items):
    """The ints the leading items parse as, up to the first that does not
    parse; that one goes to the log."""
    out, log = [], []
    for s in items:
        try:
            out.append(int(s))
        except ValueError:
            log.append(s)
            break
    return [out, log]
