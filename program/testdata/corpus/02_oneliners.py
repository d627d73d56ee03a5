import sys; import os

def clamp(x, lo, hi):
    if x < lo: return lo
    elif x > hi: return hi
    else: return x

def count(xs):
    n = 0; total = 0
    for x in xs: n += 1; total += x
    while n > 10: n -= 1
    return n, total

class Point: x = 0; y = 0

try: value = int(sys.argv[1])
except (IndexError, ValueError): value = 0
finally: pass

with open(os.devnull) as fh: fh.read()
