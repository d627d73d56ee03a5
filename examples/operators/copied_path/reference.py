import copy


class Namespace:
    """Attributes made up on first use: Namespace().a.b has the path a, b."""

    def __init__(self, path=()):
        self.path = path

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Namespace(self.path + (name,))


def copied_path(names):
    """The paths of the namespace that names reach and of its root, read
    on copies of them."""
    root = ns = Namespace()
    for n in names:
        ns = getattr(ns, n)
    return [list(copy.copy(ns).path), list(copy.copy(root).path)]
