def sum_even(numbers):
    """Sum of the even numbers."""
    total = 0
    for n in numbers:
        if not n % 2:
            total += n
    return total
