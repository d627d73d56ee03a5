"""Statistics of a list, with a bug: mean divides by one too many.

Written for the soak test: most statements are one edit away from a loop
that never ends (total, grow, chatty), a recursion without a base case
(depth), an allocation without bound (grow) or a flood of output (chatty).
"""


def total(xs):
    s = 0
    i = 0
    while i < len(xs):
        s += xs[i]
        i += 1
    return s


def mean(xs):
    return total(xs) / (len(xs) + 1)


def depth(n):
    if n <= 0:
        return 0
    return depth(n - 1) + 1


def grow(n):
    out = [1]
    while len(out) < n:
        out.extend(out)
    return out[:n]


def chatty(n):
    k = 0
    x = 0
    while x < n:
        print("step", x, "of", n)
        k += x
        x += 1
    return k


def stats(xs):
    return [mean(xs), depth(len(xs)), len(grow(len(xs) * 10)), chatty(len(xs))]
