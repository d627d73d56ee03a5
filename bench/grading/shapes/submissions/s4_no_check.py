import math


class Shape:
    pass


class Circle(Shape):
    def __init__(self, r):
        self.r = r

    def area(self):
        return math.pi * self.r ** 2

    def perimeter(self):
        return 2 * math.pi * self.r

    def scaled(self, k):
        return Circle(self.r * k)


class Rect(Shape):
    def __init__(self, w, h):
        self.w, self.h = w, h

    def area(self):
        return self.w * self.h

    def perimeter(self):
        return 2 * (self.w + self.h)

    def scaled(self, k):
        return Rect(self.w * k)


def largest(shapes):
    return sorted(shapes, key=lambda s: s.area())[-1]
