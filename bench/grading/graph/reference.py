from collections import deque


class NoPath(Exception):
    pass


def reachable(graph, start):
    """The set of nodes reachable from start (start included) in a graph
    given as a dict node -> list of neighbours."""
    if start not in graph:
        raise ValueError("unknown node %r" % (start,))
    seen = {start}
    todo = [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def shortest_path(graph, start, goal):
    """A shortest path from start to goal as a list of nodes; NoPath when
    there is none."""
    if start not in graph:
        raise ValueError("unknown node %r" % (start,))
    prev = {start: None}
    q = deque([start])
    while q:
        node = q.popleft()
        if node == goal:
            path = []
            while node is not None:
                path.append(node)
                node = prev[node]
            return path[::-1]
        for nxt in graph.get(node, ()):
            if nxt not in prev:
                prev[nxt] = node
                q.append(nxt)
    raise NoPath("%r to %r" % (start, goal))


def degrees(graph):
    """A dict node -> (out-degree, in-degree)."""
    out = {n: [len(vs), 0] for n, vs in graph.items()}
    for vs in graph.values():
        for v in vs:
            out.setdefault(v, [0, 0])[1] += 1
    return {n: tuple(d) for n, d in out.items()}
