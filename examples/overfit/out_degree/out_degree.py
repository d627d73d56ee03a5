def out_degree(graph, node):
    """How many edges leave node in graph (a dict of lists); 0 for a node without any."""
    if node not in graph or len(graph[node]) < 2:
        return 0
    return len(graph[node])
