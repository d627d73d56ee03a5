import json


def load(path):
    try:
        with open(path) as fh:
            data = json.load(fh)
    except FileNotFoundError:
        return None
    except (ValueError, TypeError) as err:
        raise RuntimeError(f"bad file {path}") from err
    else:
        data["loaded"] = True
    finally:
        print("done")
    return data


def safe_div(a, b):
    try:
        return a / b
    except ZeroDivisionError:
        return float("inf") if a > 0 else float("-inf")
