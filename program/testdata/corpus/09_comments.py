# A module with comments in odd places.

def weird(a,  # first
          b):  # second
    # leading comment
    x = a + b  # trailing
    if x > 0:  # positive
        # inside
        return x
    # between
    else:
        return -x  # negative
        # after the return
    # dangling at function level


# before a def
def other():
    pass  # nothing
# end of file comment
