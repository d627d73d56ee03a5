def make_counter(start=0):
    count = start

    def increment(step=1):
        nonlocal count
        count += step
        return count

    def reset():
        nonlocal count
        count = start

    return increment, reset


def outer(xs):
    def key(x):
        return (-x[1], x[0])

    total = 0
    for i, x in enumerate(sorted(xs, key=key)):
        for j in range(i):
            if j % 2:
                continue
            if j > 10:
                break
            total += j
        else:
            total -= 1
    return total


counter = 0


def bump():
    global counter
    counter += 1
    return counter
