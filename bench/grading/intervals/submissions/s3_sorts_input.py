def merge(intervals):
    for s, e in intervals:
        if s > e:
            raise ValueError("bad interval: start after end")
    intervals.sort()
    out = []
    for s, e in intervals:
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def total_length(intervals):
    return sum(e - s for s, e in merge(intervals))


def covers(intervals, x):
    return any(s <= x < e for s, e in intervals)
