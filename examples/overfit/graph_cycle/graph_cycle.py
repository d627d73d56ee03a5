class Graph:
    """A directed graph."""

    def __init__(self):
        self.edges = {}

    def add_edge(self, a, b):
        self.edges.setdefault(a, []).append(b)
        self.edges.setdefault(b, [])

    def has_cycle(self):
        state = {}

        def visit(node):
            state[node] = "open"
            for nxt in self.edges[node]:
                if state.get(nxt) == "open":
                    return True
                if nxt not in state and visit(nxt):
                    return True
            state[node] = "open"
            return False

        return any(visit(n) for n in list(self.edges) if n not in state)
