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


def approx(expected, rel=None, abs=None):
    # gpython never calls __eq__ of an instance, so an approx object would
    # silently compare unequal: refuse it instead.
    raise NotImplementedError("pytest.approx is not supported by gpython (it never calls __eq__ of an object)")


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


def _apply(mk, f):
    f.pytestmark = getattr(f, "pytestmark", []) + [mk]
    return f


# gpython cannot call an instance (its __call__ is never used), so marks
# are functions; and its closures lose the variables they capture, so
# these functions get their values as default arguments.
def _marker(name):
    def mark(*args, _mark_name=name, **kwargs):
        if len(args) == 1 and not kwargs and _callable(args[0]):
            return _apply(Mark(_mark_name), args[0])
        return _applier(Mark(_mark_name, args, kwargs))

    return mark


def _applier(mk):
    def apply(f, _mark=mk):
        return _apply(_mark, f)

    return apply


class MarkGenerator(object):
    def __getattr__(self, name):
        if name[:2] == "__":
            raise AttributeError(name)
        return _marker(name)


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
