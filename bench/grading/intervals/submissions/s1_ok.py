def merge(intervals):
    if any(a > b for a, b in intervals):
        raise ValueError("bad interval")
    result = []
    for a, b in sorted(intervals, key=lambda p: p[0]):
        if not result or a > result[-1][1]:
            result.append([a, b])
        elif b > result[-1][1]:
            result[-1][1] = b
    return [tuple(p) for p in result]


def total_length(intervals):
    return sum(b - a for a, b in merge(intervals))


def covers(intervals, x):
    for a, b in intervals:
        if a <= x <= b:
            return True
    return False
