import math


def stats(values, low=0, high=10):
    """Mean and spread of the values within [low, high]."""
    kept = [v for v in values if low <= v <= high]
    if not kept or len(kept) < 2:
        return None
    total = 0
    for v in kept:
        total += v
    mean = total / len(kept)
    spread = max(kept) - min(kept)
    label = f"{mean:.2f}"
    return round(mean, 2), math.sqrt(spread), label is not None and spread > 0


def depth(node):
    if node is None:
        return 0
    return 1 + max(depth(node.left), depth(node.right))
