def fizzbuzz(n):
    out = []
    for i in range(n):
        j = i + 1
        if j % 15 == 0:
            out.append("FizzBuzz")
        elif j % 3 == 0:
            out.append("Fizz")
        elif j % 5 == 0:
            out.append("Buzz")
        else:
            out.append(str(j))
    return out
