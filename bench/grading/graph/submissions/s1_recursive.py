class NoPath(LookupError):
    pass


def reachable(graph, start, seen=None):
    if start not in graph:
        raise ValueError(start)
    if seen is None:
        seen = set()
    seen.add(start)
    for n in graph[start]:
        if n not in seen:
            reachable(graph, n, seen)
    return seen


def shortest_path(graph, start, goal):
    if start not in graph:
        raise ValueError(start)
    frontier = [[start]]
    visited = {start}
    while frontier:
        nxt = []
        for path in frontier:
            if path[-1] == goal:
                return path
            for n in graph.get(path[-1], []):
                if n not in visited:
                    visited.add(n)
                    nxt.append(path + [n])
        frontier = nxt
    raise NoPath(goal)


def degrees(graph):
    ins = {}
    for vs in graph.values():
        for v in vs:
            ins[v] = ins.get(v, 0) + 1
    nodes = set(graph) | set(ins)
    return {n: (len(graph.get(n, [])), ins.get(n, 0)) for n in nodes}
