def has_path(graph, start, goal):
    """Whether goal can be reached from start in graph (a dict of lists)."""
    seen = set()
    todo = [start]
    while todo:
        node = todo.pop()
        if node == goal:
            return True
        seen.add(node)
        for nxt in graph.get(node, []):
            if nxt not in seen:
                todo.append(node)
    return False
