import math


def mean(xs):
    if not xs:
        raise ValueError("mean of no values")
    return sum(xs) / len(xs)


def median(xs):
    if not xs:
        raise ValueError("median of no values")
    s = sorted(xs)
    mid = len(s) // 2
    if len(s) % 2:
        return s[mid]
    return (s[mid - 1] + s[mid]) / 2


def stdev(xs):
    """The sample standard deviation; fewer than two values raise ValueError."""
    if len(xs) < 2:
        raise ValueError("need at least two values")
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def summary(xs):
    return {"n": len(xs), "mean": mean(xs), "median": median(xs), "min": min(xs), "max": max(xs)}
