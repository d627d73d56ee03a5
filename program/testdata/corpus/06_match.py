def describe(command):
    match command.split():
        case ["go", direction]:
            return f"going {direction}"
        case ["look"]:
            return "looking"
        case ["take", *items] if items:
            count = len(items)
            return "taking " + str(count)
        case {"x": x, "y": y}:
            return x + y
        case Point(x=0, y=0):
            return "origin"
        case _:
            return "unknown"


class Point:
    __match_args__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y
