def fizzbuzz(n):
    res = []
    k = 1
    while k <= n:
        if k % 3 == 0 and k % 5 == 0:
            res.append("FizzBuzz")
        elif k % 3 == 0:
            res.append("Fizz")
        elif k % 5 == 0:
            res.append("Buzz")
        else:
            res.append(str(k))
        k += 1
    return res
