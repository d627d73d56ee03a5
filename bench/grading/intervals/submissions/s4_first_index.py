def merge(intervals):
    intervals = sorted(intervals)
    out = [intervals[0]]
    for s, e in intervals[1:]:
        if s > e:
            raise ValueError("bad interval")
        if s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def total_length(intervals):
    return sum(e - s for s, e in merge(intervals))


def covers(intervals, x):
    return any(s <= x <= e for s, e in intervals)
