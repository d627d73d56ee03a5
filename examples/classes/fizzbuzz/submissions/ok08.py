def fizzbuzz(limit):
    output = []
    j = 1
    while j <= limit:
        if j % 3 == 0 and j % 5 == 0:
            output.append("FizzBuzz")
        elif j % 3 == 0:
            output.append("Fizz")
        elif j % 5 == 0:
            output.append("Buzz")
        else:
            output.append(str(j))
        j += 1
    return output
