def f(d):
    out = [d.setdefault("a", 1), d.setdefault("a", 2), d.pop("a"), d.pop("zz", "none")]
    e = d.copy()
    e.update({"u": 1})
    e.update([("v", 2)], w=3)
    pairs = []
    for k in sorted(e):
        pairs.append([k, e[k]])
    out.append(pairs)
    d.clear()
    out.append(d)
    return out
def pop(d, k):
    return d.pop(k)
def rev(xs):
    return [list(reversed(xs)), list(reversed(range(3))), "".join(reversed("abc")), callable(len), callable(3)]
