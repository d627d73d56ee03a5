import middle

"""
def test_in_docstring():
    pass
"""

class Middle:
    def test_method(self):
        assert middle.middle(2, 1, 3) == 2

def helper_test_x():
    pass
