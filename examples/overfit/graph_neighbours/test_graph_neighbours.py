from graph_neighbours import Graph


def test_two_edges():
    g = Graph()
    g.add_edge("a", "c")
    g.add_edge("a", "b")
    assert g.neighbours("a") == ["b", "c"]


def test_one_edge():
    g = Graph()
    g.add_edge("a", "b")
    assert g.neighbours("a") == ["b"]


def test_chain():
    g = Graph()
    g.add_edge("a", "b")
    g.add_edge("b", "c")
    assert g.neighbours("b") == ["c"]
