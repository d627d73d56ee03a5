from collections import deque


class NoPath(Exception):
    pass


def reachable(graph, start):
    seen = {start}
    todo = [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def shortest_path(graph, start, goal):
    prev = {start: None}
    q = deque([start])
    while q:
        node = q.popleft()
        if node == goal:
            path = []
            while node is not None:
                path.insert(0, node)
                node = prev[node]
            return path
        for nxt in graph[node]:
            if nxt not in prev:
                prev[nxt] = node
                q.append(nxt)
    raise NoPath()


def degrees(graph):
    out = {n: [len(vs), 0] for n, vs in graph.items()}
    for vs in graph.values():
        for v in vs:
            out[v][1] += 1
    return {n: tuple(d) for n, d in out.items()}
