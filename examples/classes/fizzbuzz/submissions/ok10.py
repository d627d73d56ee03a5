def fizzbuzz(limit):
    res = []
    for k in range(limit):
        jj = k + 1
        if jj % 15 == 0:
            res.append("FizzBuzz")
        elif jj % 3 == 0:
            res.append("Fizz")
        elif jj % 5 == 0:
            res.append("Buzz")
        else:
            res.append(str(jj))
    return res
