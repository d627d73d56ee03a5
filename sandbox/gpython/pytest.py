# A small stand-in for pytest, run by gpython (a Python 3.4 subset) in the
# workers of the gpython engine: raises, approx, fail, skip, param, fixture
# and mark (parametrize, skip, skipif, xfail). _issubclass, _callable and
# _search are Go helpers of the engine.


class Skipped(Exception):
    pass


class RaisesContext(object):
    def __init__(self, expected, match):
        self.expected = expected
        self.match = match
        self.value = None
        self.type = None

    def __enter__(self):
        return self

    def __exit__(self, et, ev, tb):
        if et is None:
            raise AssertionError("DID NOT RAISE %s" % _name(self.expected))
        if not _issubclass(et, self.expected):
            return False
        if self.match is not None and not _search(self.match, str(ev)):
            raise AssertionError("Regex pattern %s does not match %s" % (repr(self.match), repr(str(ev))))
        self.value = ev
        self.type = et
        return True


def raises(expected, *args, **kwargs):
    match = None
    if "match" in kwargs:
        match = kwargs["match"]
        del kwargs["match"]
    ctx = RaisesContext(expected, match)
    if not args:
        return ctx
    with ctx:
        args[0](*args[1:], **kwargs)
    return ctx


class approx(object):
    def __init__(self, expected, rel=None, abs=None):
        self.expected = expected
        self.rel = rel
        self.abs = abs

    def _close(self, e, a):
        if isinstance(e, list) or isinstance(e, tuple):
            if not (isinstance(a, list) or isinstance(a, tuple)) or len(a) != len(e):
                return False
            for i in range(len(e)):
                if not self._close(e[i], a[i]):
                    return False
            return True
        if isinstance(e, dict):
            if not isinstance(a, dict) or sorted(a) != sorted(e):
                return False
            for k in e:
                if not self._close(e[k], a[k]):
                    return False
            return True
        if _number(e) and _number(a):
            rel = 1e-6
            if self.rel is not None:
                rel = self.rel
            ab = 1e-12
            if self.abs is not None:
                ab = self.abs
            if e == a:
                return True
            return _abs(e - a) <= max(rel * _abs(e), ab)
        return e == a

    def __eq__(self, other):
        return self._close(self.expected, other)

    def __ne__(self, other):
        return not self._close(self.expected, other)

    def __repr__(self):
        return "approx(%s)" % repr(self.expected)


_abs = abs


def _number(x):
    return (isinstance(x, int) or isinstance(x, float)) and not isinstance(x, bool)


def _name(t):
    try:
        return t.__qualname__
    except AttributeError:
        return repr(t)


class Mark(object):
    def __init__(self, name, args=(), kwargs=None):
        self.name = name
        self.args = args
        self.kwargs = kwargs

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and not kwargs and _callable(args[0]):
            f = args[0]
            marks = getattr(f, "pytestmark", [])
            f.pytestmark = marks + [self]
            return f
        return Mark(self.name, args, kwargs)


class MarkGenerator(object):
    def __getattr__(self, name):
        if name[:2] == "__":
            raise AttributeError(name)
        return Mark(name)


mark = MarkGenerator()


class ParameterSet(object):
    def __init__(self, values):
        self.values = values


def param(*values, **kwargs):
    return ParameterSet(values)


def fixture(*args, **kwargs):
    if len(args) == 1 and _callable(args[0]) and not kwargs:
        return args[0]
    return lambda f: f


def fail(msg="", pytrace=True):
    raise AssertionError(msg)


def skip(msg="", **kwargs):
    raise Skipped(msg)


def _test_calls(fn):
    """The keyword arguments of every call of a test function (one per
    parametrize combination), or None when it is skipped."""
    combos = [{}]
    for mk in getattr(fn, "pytestmark", []):
        name = getattr(mk, "name", "")
        if name == "skip":
            return None
        if name == "skipif" and mk.args and mk.args[0]:
            return None
        if name == "parametrize" and len(mk.args) >= 2:
            names = mk.args[0]
            values = mk.args[1]
            if isinstance(names, str):
                names = [n.strip() for n in names.split(",") if n.strip()]
            names = list(names)
            new = []
            for v in values:
                if isinstance(v, ParameterSet):
                    vals = list(v.values)
                elif len(names) > 1:
                    vals = list(v)
                else:
                    vals = [v]
                for base in combos:
                    d = dict(base)
                    for i in range(min(len(names), len(vals))):
                        d[names[i]] = vals[i]
                    new.append(d)
            combos = new
    return combos
