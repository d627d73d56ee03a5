from graph_cycle import Graph


def test_loop():
    g = Graph()
    g.add_edge("a", "b")
    g.add_edge("b", "a")
    assert g.has_cycle()


def test_line():
    g = Graph()
    g.add_edge("a", "b")
    g.add_edge("b", "c")
    assert not g.has_cycle()


def test_diamond():
    g = Graph()
    g.add_edge("a", "b")
    g.add_edge("a", "c")
    g.add_edge("b", "d")
    g.add_edge("c", "d")
    assert not g.has_cycle()
