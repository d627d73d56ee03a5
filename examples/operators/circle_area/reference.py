import math


def circle_area(r):
    """The area of a circle of radius r."""
    return math.pi * r * r
