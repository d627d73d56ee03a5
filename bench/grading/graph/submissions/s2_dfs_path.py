class NoPath(Exception):
    pass


def reachable(graph, start):
    if start not in graph:
        raise ValueError("unknown")
    seen, todo = set(), [start]
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo.extend(graph.get(n, []))
    return seen


def shortest_path(graph, start, goal, path=None):
    if start not in graph:
        raise ValueError("unknown")
    path = (path or []) + [start]
    if start == goal:
        return path
    for n in graph[start]:
        if n not in path:
            try:
                return shortest_path(graph, n, goal, path)
            except NoPath:
                pass
    raise NoPath(goal)


def degrees(graph):
    out = {n: (len(vs), sum(vs2.count(n) for vs2 in graph.values())) for n, vs in graph.items()}
    return out
