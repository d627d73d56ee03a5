def fizzbuzz(limit):
    """The words of fizzbuzz from 1 to n."""
    res = []
    for k in range(1, limit + 1):
        if k % 15 == 0:
            res.append("FizzBuzz")
        elif k % 3 == 0:
            res.append("Fizz")
        elif k % 5 == 0:
            res.append("Buzz")
        else:
            res.append(str(k))
    return res
