"""import middle"""
# import middle

def test_one():
    assert 1 + 1 == 2
