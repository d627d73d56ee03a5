def greet(name, times=1):
    width = 10
    msg = f"Hello, {name}!"
    line = f"{name!r:>{width}} x{times:03d}"
    nested = f"{'yes' if times > 1 else 'no'}"
    multi = f"""
    {name}
        {times * 2}
    """
    return msg + line + nested + multi


def money(x):
    return f"{x:,.2f} EUR" if x >= 0 else f"-{-x:,.2f} EUR"
