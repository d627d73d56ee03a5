"""The built-in runner's pytest: a stand-in for test files run without the
real pytest (not importable under -S, and far too big for the fork
server), and what the runner reads of a test function: the calls its
parametrize marks ask for, the fixtures it would need, and how to drive
it when it is a coroutine. Owns no state: candidate.py keeps the stand-in
it makes (candidate.PYTEST).
"""
import sys

ModuleType = type(sys)


def make_pytest():
    """A small stand-in for pytest (not importable under -S, and far too
    big for the fork server): raises, approx, fail, skip, param, fixture and
    mark (parametrize, skip, skipif, xfail)."""
    m = ModuleType("pytest")

    class Skipped(Exception):
        pass

    class RaisesContext:
        def __init__(self, exc, match):
            self.expected, self.match = exc, match
            self.value = self.type = None

        def __enter__(self):
            return self

        def __exit__(self, et, ev, tb):
            if et is None:
                raise AssertionError("DID NOT RAISE %r" % (self.expected,))
            if not issubclass(et, self.expected):
                return False
            if self.match is not None:
                import re

                if not re.search(self.match, str(ev)):
                    raise AssertionError("Regex pattern %r does not match %r" % (self.match, str(ev)))
            self.value, self.type = ev, et
            return True

    def raises(exc, *args, match=None, **kwargs):
        ctx = RaisesContext(exc, match)
        if not args:
            return ctx
        with ctx:
            args[0](*args[1:], **kwargs)
        return ctx

    class approx:
        def __init__(self, expected, rel=None, abs=None):
            self.expected, self.rel, self.abs = expected, rel, abs

        def _close(self, e, a):
            if isinstance(e, (list, tuple)):
                return isinstance(a, (list, tuple)) and len(a) == len(e) and all(self._close(x, y) for x, y in zip(e, a))
            if isinstance(e, dict):
                return isinstance(a, dict) and a.keys() == e.keys() and all(self._close(e[k], a[k]) for k in e)
            if isinstance(e, (int, float)) and not isinstance(e, bool) and isinstance(a, (int, float)):
                rel = 1e-6 if self.rel is None else self.rel
                ab = 1e-12 if self.abs is None else self.abs
                if e == a:
                    return True
                return abs_(e - a) <= max(rel * abs_(e), ab)
            return e == a

        def __eq__(self, other):
            return self._close(self.expected, other)

        def __ne__(self, other):
            return not self.__eq__(other)

        __hash__ = None

        def __repr__(self):
            return "approx(%r)" % (self.expected,)

    abs_ = abs

    class Mark:
        def __init__(self, name, args=(), kwargs=None):
            self.name, self.args, self.kwargs = name, args, kwargs or {}

        def __call__(self, *args, **kwargs):
            if len(args) == 1 and not kwargs and callable(args[0]):
                f = args[0]
                f.pytestmark = list(getattr(f, "pytestmark", [])) + [self]
                return f
            return Mark(self.name, args, kwargs)

    class MarkGenerator:
        def __getattr__(self, name):
            if name.startswith("__"):
                raise AttributeError(name)
            return Mark(name)

    class ParameterSet(tuple):
        pass

    def param(*values, **kwargs):
        return ParameterSet(values)

    def fixture(*args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]
        return lambda f: f

    def fail(msg="", pytrace=True):
        raise AssertionError(msg)

    def skip(msg="", **kwargs):
        raise Skipped(msg)

    m.raises, m.approx, m.mark, m.param = raises, approx, MarkGenerator(), param
    m.fixture, m.fail, m.skip, m.Skipped, m.ParameterSet = fixture, fail, skip, Skipped, ParameterSet
    return m


def test_calls(fn, pytest):
    """The keyword arguments of every call of a test function (one per
    parametrize combination), or None when it is skipped."""
    combos = [{}]
    for mk in getattr(fn, "pytestmark", ()):
        name = getattr(mk, "name", "")
        if name == "skip":
            return None
        if name == "skipif" and mk.args and mk.args[0]:
            return None
        if name == "parametrize" and len(mk.args) >= 2:
            names, values = mk.args[0], mk.args[1]
            if isinstance(names, str):
                names = [n.strip() for n in names.split(",") if n.strip()]
            names = list(names)
            new = []
            for v in values:
                vals = tuple(v) if len(names) > 1 or isinstance(v, pytest.ParameterSet) else (v,)
                for base in combos:
                    d = dict(base)
                    d.update(zip(names, vals))
                    new.append(d)
            combos = new
    return combos


def missing_fixtures(fn, calls):
    """The first parameter of a test function that no parametrize gives
    and that has no default: a fixture only pytest provides."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    n = code.co_argcount + code.co_kwonlyargcount
    names = code.co_varnames[:n]
    defaults = len(getattr(fn, "__defaults__", None) or ())
    required = names[: code.co_argcount - defaults] + tuple(
        k for k in names[code.co_argcount :] if k not in (getattr(fn, "__kwdefaults__", None) or {})
    )
    for name in required:
        if any(name not in kw for kw in calls):
            return name
    return None


def drive(coro):
    """Runs a coroutine that awaits nothing but other coroutines."""
    try:
        while True:
            coro.send(None)
    except StopIteration as s:
        return s.value
