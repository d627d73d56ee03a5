def evens(xs):
    return [x for x in xs if x % 2 == 0]


def squares(n):
    return {i: i * i for i in range(n) if i > 0}


def flatten(rows):
    return [cell for row in rows for cell in row]


def unique(xs):
    seen = set()
    return [x for x in xs if not (x in seen or seen.add(x))]


def total(xs):
    return sum(x for x in xs if x is not None)


def pairs(n):
    return {(a, b) for a in range(n) for b in range(a) if (a + b) % 3}
