import math


class Shape:
    def area(self):
        raise NotImplementedError

    def perimeter(self):
        raise NotImplementedError


class Circle(Shape):
    def __init__(self, r):
        if r <= 0:
            raise ValueError("radius must be positive")
        self.r = r

    def area(self):
        return math.pi * self.r ** 2

    def perimeter(self):
        return 2 * math.pi * self.r

    def scaled(self, k):
        return Circle(self.r * k)


class Rect(Shape):
    def __init__(self, w, h):
        if w <= 0 or h <= 0:
            raise ValueError("sides must be positive")
        self.w, self.h = w, h

    def area(self):
        return self.w * self.h

    def perimeter(self):
        return 2 * (self.w + self.h)

    def scaled(self, k):
        return Rect(self.w * k, self.h * k)


def largest(shapes):
    return max(shapes, key=lambda s: s.area())
