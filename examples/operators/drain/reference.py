def drain(queue):
    """Pop every item off the end of queue; return them in the order popped."""
    out = []
    while queue:
        out.append(queue.pop())
    return out
