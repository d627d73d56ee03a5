def f(xs):
    a = list(xs)
    out = []
    a.insert(1, "i")
    a.insert(-1, "j")
    a.insert(100, "k")
    out.append(a.pop())
    out.append(a.pop(0))
    out.append(a.index("i"))
    out.append(a.count(2))
    b = a.copy()
    a.reverse()
    out.append(a)
    out.append(b)
    if 2 in b:
        b.remove(2)
    out.append(b)
    b.clear()
    out.append(b)
    return out
def pop(xs, i):
    return xs.pop(i)
def index(xs, x):
    return xs.index(x)
def remove(xs, x):
    xs.remove(x)
    return xs
