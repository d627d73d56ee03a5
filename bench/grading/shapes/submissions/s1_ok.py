from math import pi


class Shape:
    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, vars(self))


class Circle(Shape):
    def __init__(self, r):
        if not r > 0:
            raise ValueError(r)
        self.r = r

    def area(self):
        return pi * self.r * self.r

    def perimeter(self):
        return pi * 2 * self.r

    def scaled(self, k):
        return type(self)(self.r * k)


class Rect(Shape):
    def __init__(self, w, h):
        if min(w, h) <= 0:
            raise ValueError((w, h))
        self.w = w
        self.h = h

    def area(self):
        return self.w * self.h

    def perimeter(self):
        return self.w + self.w + self.h + self.h

    def scaled(self, k):
        return type(self)(self.w * k, self.h * k)


def largest(shapes):
    best = None
    for s in shapes:
        if best is None or s.area() > best.area():
            best = s
    return best
