import statistics


def mean(xs):
    if len(xs) == 0:
        raise ValueError("empty")
    return statistics.fmean(xs)


def median(xs):
    if len(xs) == 0:
        raise ValueError("empty")
    return statistics.median(xs)


def stdev(xs):
    if len(xs) < 2:
        raise ValueError("too few")
    return statistics.stdev(xs)


def summary(xs):
    return dict(n=len(xs), mean=mean(xs), median=median(xs), min=min(xs), max=max(xs))
