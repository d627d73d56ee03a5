import math


def circle_area(r):
    """The area of a circle of radius r."""
    return 3.14159 * r * r
