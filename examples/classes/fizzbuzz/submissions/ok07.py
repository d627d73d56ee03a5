def fizzbuzz(limit):
    res = []
    for k in range(1, limit + 1):
        t = ""
        if k % 3 == 0:
            t += "Fizz"
        if k % 5 == 0:
            t += "Buzz"
        res.append(t or str(k))
    return res
