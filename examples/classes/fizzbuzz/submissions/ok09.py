def fizzbuzz(limit):
    return ["FizzBuzz" if k % 15 == 0 else "Fizz" if k % 3 == 0 else "Buzz" if k % 5 == 0 else str(k) for k in range(1, limit + 1)]
