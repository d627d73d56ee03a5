class Graph:
    """A directed graph of named nodes."""

    def __init__(self):
        self.edges = {}

    def add_edge(self, a, b):
        self.edges.setdefault(a, []).append(b)

    def neighbours(self, node):
        """The nodes node has an edge to, sorted; [] for a node without edges."""
        if node not in self.edges:
            return []
        return sorted(self.edges[node])
