# A test file run with its code under test in another process: the check of
# delivered fixes and the grades of a batch (docs/engines.md, "Verdicts the
# code under test cannot reach"). Two roles, one per process, linked by two
# pipes that Go makes:
#
#   tests:     plain pytest on the test file (as plain.py runs it), with a
#              stand-in module in sys.modules under the target's name;
#              each use of it (an attribute read, a call, an operation on
#              an object the target made) crosses to the candidate's
#              process and back. The verdicts are made here, where nothing
#              of the candidate runs.
#   candidate: the target's code, loaded from the source Go sends, serving
#              those requests. The test file, pytest, the verdicts and this
#              process's peer are out of its reach: it runs in a sandbox of
#              its own that holds the project's modules but no test file.
#
# What crosses is plain data, encoded as JSON (never pickle or marshal: the
# tests' process decodes what the candidate sends): None, bool, int, float,
# complex, str, bytes, bytearray, list, tuple, dict, set, frozenset, range, slice,
# a few standard value types (Decimal, Fraction, dates and times, Counter,
# OrderedDict, deque, dict views), exceptions by type and arguments, and
# a class or function of a module outside the target's code by its module
# and qualified name (the tests' process's own: contextlib.suppress).
# An object of the target's own code (an instance of one of its classes, a
# function, a class, a generator it made, an iterator over its data)
# crosses as a handle: the tests' process holds a proxy whose uses cross
# again. Anything else the candidate hands back (a mock, an object of
# another library) is a wrong answer, said in the verdict. A proxy never
# equals plain data unless its class derives from a plain type and the
# target defines no __eq__ for it (then the plain value is compared): an
# object cannot pass an assert by comparing equal to everything.
#
# Anything else the tests hand to the code under test (a function of the
# test file, a mock) does not cross either: that test's outcome is
# "uncrossable", and Go judges it in-process instead, saying so.
import copy
import json
import os
import signal
import struct
import sys

ModuleType = type(sys)
FUNCTION_TYPES = (type(lambda: None), type(len))  # a Python function, a built-in one
LEN = struct.Struct("<I")
MAX_MSG = 64 << 20
BIG = 1 << 62
IMMUTABLE_TYPE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE: no attribute of the type can be set
PLAIN_NAMES = ("list", "dict", "tuple", "set", "frozenset", "str", "bytes", "int", "float", "complex", "bytearray")
# Exceptions whose raising changes how pytest counts a test (a skip, an
# xfail, an exit): the candidate may not raise them into the tests.
OUTCOME_MODULES = ("_pytest", "pytest", "pluggy", "unittest", "doctest", "__main__", "builtins_")


def read_exact(fd, n):
    chunks, got = [], 0
    while got < n:
        b = os.read(fd, n - got)
        if not b:
            raise EOFError
        chunks.append(b)
        got += len(b)
    return b"".join(chunks)


def send(fd, obj):
    data = json.dumps(obj, separators=(",", ":")).encode("utf-8", "surrogatepass")
    data = LEN.pack(len(data)) + data
    while data:
        n = os.write(fd, data)
        data = data[n:]


def receive(fd):
    (n,) = LEN.unpack(read_exact(fd, LEN.size))
    if n > MAX_MSG:
        raise ValueError("a message of %d bytes" % n)
    return json.loads(read_exact(fd, n).decode("utf-8", "surrogatepass"))


class Unencodable(Exception):
    """A value that does not cross (its type's name)."""


def encode(v, handle, depth=0):
    """v as JSON; handle(v) is the encoding of an object that crosses as a
    handle, or raises Unencodable."""
    if depth > 200:
        raise Unencodable("a structure nested more than 200 deep")
    t = type(v)
    if v is None or t is bool or t is str:
        return v
    if t is int:
        return v if -BIG < v < BIG else {"t": "int", "v": hex(v)}
    if t is float:
        return v if v == v and v not in (float("inf"), float("-inf")) else {"t": "float", "v": repr(v)}
    d = depth + 1
    if t is list:
        return [encode(x, handle, d) for x in v]
    if t is tuple:
        return {"t": "tuple", "v": [encode(x, handle, d) for x in v]}
    if t is dict:
        return {"t": "dict", "v": [[encode(k, handle, d), encode(x, handle, d)] for k, x in v.items()]}
    if t is set or t is frozenset:
        return {"t": t.__name__, "v": [encode(x, handle, d) for x in v]}
    if t is bytes or t is bytearray:
        return {"t": t.__name__, "v": v.hex()}
    if t is complex:
        return {"t": "complex", "v": [repr(v.real), repr(v.imag)]}
    if t is range:
        return {"t": "range", "v": [v.start, v.stop, v.step]}
    if t is slice:
        return {"t": "slice", "v": [encode(x, handle, d) for x in (v.start, v.stop, v.step)]}
    name = "%s.%s" % (t.__module__, t.__qualname__)
    if name in STD:
        return {"t": "std", "type": name, "v": encode(STD[name][0](v), handle, d)}
    if t.__name__ in ("dict_keys", "dict_values", "dict_items") and t.__module__ == "builtins":
        return {"t": t.__name__, "v": [encode(x, handle, d) for x in v]}
    return handle(v)


def decode(v, handle, depth=0):
    """The value JSON v encodes; handle(d) is the value of a handle's
    encoding d."""
    if depth > 200:
        raise ValueError("nested too deep")
    if v is None or type(v) in (bool, int, float, str):
        return v
    d = depth + 1
    if type(v) is list:
        return [decode(x, handle, d) for x in v]
    t = v.get("t")
    if t == "tuple":
        return tuple(decode(x, handle, d) for x in v["v"])
    if t == "dict":
        return {decode(k, handle, d): decode(x, handle, d) for k, x in v["v"]}
    if t == "set":
        return {decode(x, handle, d) for x in v["v"]}
    if t == "frozenset":
        return frozenset(decode(x, handle, d) for x in v["v"])
    if t == "bytes":
        return bytes.fromhex(v["v"])
    if t == "bytearray":
        return bytearray.fromhex(v["v"])
    if t == "int":
        return int(v["v"], 16)
    if t == "float":
        return float(v["v"])
    if t == "complex":
        return complex(float(v["v"][0]), float(v["v"][1]))
    if t == "range":
        return range(*v["v"])
    if t == "slice":
        return slice(*(decode(x, handle, d) for x in v["v"]))
    if t == "std" and v.get("type") in STD:
        return STD[v["type"]][1](decode(v["v"], handle, d))
    if t == "dict_keys":
        return {decode(x, handle, d): None for x in v["v"]}.keys()
    if t == "dict_values":
        return dict(enumerate(decode(x, handle, d) for x in v["v"])).values()
    if t == "dict_items":
        return dict(decode(x, handle, d) for x in v["v"]).items()
    return handle(v)


def std_types():
    """The standard value types that cross as data: name -> (to plain, from
    plain)."""
    import collections
    import datetime
    import decimal
    import fractions

    def tz(x):
        o = x.utcoffset()
        return None if o is None else o.total_seconds()

    def with_tz(args, off):
        return datetime.timezone(datetime.timedelta(seconds=off)) if off is not None else None

    return {
        "decimal.Decimal": (str, decimal.Decimal),
        "fractions.Fraction": (lambda x: (x.numerator, x.denominator), lambda p: fractions.Fraction(*p)),
        "datetime.date": (lambda x: (x.year, x.month, x.day), lambda p: datetime.date(*p)),
        "datetime.datetime": (
            lambda x: (x.year, x.month, x.day, x.hour, x.minute, x.second, x.microsecond, tz(x)),
            lambda p: datetime.datetime(*p[:7], tzinfo=with_tz(p, p[7])),
        ),
        "datetime.time": (lambda x: (x.hour, x.minute, x.second, x.microsecond), lambda p: datetime.time(*p)),
        "datetime.timedelta": (lambda x: (x.days, x.seconds, x.microseconds), lambda p: datetime.timedelta(*p)),
        "collections.Counter": (dict, collections.Counter),
        "collections.OrderedDict": (lambda x: list(x.items()), collections.OrderedDict),
        "collections.deque": (list, collections.deque),
    }


STD = {}


MUTABLE = (list, dict, set, bytearray)


def has_mutable(v, depth=0):
    """v holds a list, dict, set or bytearray (that a call could change)."""
    t = type(v)
    if t in MUTABLE:
        return True
    if t is tuple and depth < 20:
        return any(has_mutable(x, depth + 1) for x in v)
    return False


def write_back(old, new, depth=0):
    """Changes old, the tests' argument, in place into new, what the call
    left of it in the candidate's process, keeping the identity of the
    containers inside it where their shape allows."""
    t = type(old)
    if depth > 50 or t is not type(new):
        return
    if t is list or t is tuple:
        if len(old) != len(new):
            if t is list:
                old[:] = new
            return
        for i, (o, n) in enumerate(zip(old, new)):
            if type(o) is type(n) and (type(o) in MUTABLE or type(o) is tuple):
                write_back(o, n, depth + 1)  # o keeps its identity
            elif t is list:
                old[i] = n
    elif t is dict:
        for k in [k for k in old if k not in new]:
            del old[k]
        for k, x in new.items():
            if k in old and type(old[k]) is type(x) and type(x) in MUTABLE:
                write_back(old[k], x, depth + 1)
            else:
                old[k] = x
    elif t is set:
        if old != new:
            old.clear()
            old.update(new)
    elif t is bytearray:
        old[:] = new


def one_line(e):
    try:
        s = "%s: %s" % (type(e).__name__, e) if str(e) else type(e).__name__
    except BaseException:
        s = type(e).__name__
    return s.strip().split("\n", 1)[0][:300]


# ---------------------------------------------------------------- candidate


def candidate(cfg, rfd, wfd):
    import builtins
    import io
    import operator
    import types

    module_name = cfg["module"]
    roots = cfg.get("roots") or []
    for r in reversed(roots):
        if r not in sys.path:
            sys.path.insert(0, r)
    objects, ids = {}, {}  # handle id -> object; id(object) -> handle id
    sent_classes = set()
    targets = set()  # the module names of the target's code

    class CPUTimeout(BaseException):
        pass

    def on_prof(signum, frame):
        raise CPUTimeout()

    signal.signal(signal.SIGPROF, on_prof)

    project = tuple(os.path.join(r, "") for r in roots)

    def ours(mod):
        """A module of the target's code: the target, or a module of the
        project's the candidate's process loaded from its copy."""
        if mod in targets or any(mod.startswith(t + ".") for t in targets if t):
            return True
        f = getattr(sys.modules.get(mod), "__file__", None) or ""
        return bool(project) and f.startswith(project)

    def keep(v):
        k = id(v)
        h = ids.get(k)
        if h is None:
            h = len(objects) + 1
            objects[h], ids[k] = v, h
        return h

    def class_desc(c):
        """A class of the target's, described for a proxy (sent once)."""
        h = keep(c)
        if h in sent_classes:
            return {"t": "cls", "id": h}
        sent_classes.add(h)
        bases, plain, eq = [], None, False
        for b in c.__mro__[1:]:
            if ours(b.__module__):
                if "__eq__" in b.__dict__ or "__ne__" in b.__dict__:
                    eq = True
        for b in c.__bases__:
            if ours(b.__module__):
                bases.append(class_desc(b))
            elif b is not object:
                bases.append({"t": "ext", "module": b.__module__, "name": b.__qualname__})
        if "__eq__" in c.__dict__ or "__ne__" in c.__dict__:
            eq = True
        for b in c.__mro__:
            if b.__module__ == "builtins" and b.__name__ in PLAIN_NAMES:
                plain = b.__name__
                break
        return {
            "t": "cls",
            "id": h,
            "name": c.__name__,
            "qualname": c.__qualname__,
            "module": c.__module__,
            "bases": bases,
            "exc": issubclass(c, BaseException),
            "plain": plain if not eq else None,
        }

    def outside(v):
        """A class or function of a module outside the target's code (the
        standard library, an installed package: contextlib.suppress that
        the target imports) as its module and qualified name, which the
        tests' process resolves to its own; None when they do not name v
        here."""
        m, q = getattr(v, "__module__", None), getattr(v, "__qualname__", None)
        if type(m) is not str or type(q) is not str or "<" in q or ours(m) or m.split(".")[0] in OUTCOME_MODULES:
            return None
        o = sys.modules.get(m)
        for part in q.split("."):
            o = getattr(o, part, None) if o is not None else None
        if o is not v:
            return None
        return {"t": "ext", "module": m, "name": q}

    def handle(v):
        t = type(v)
        if isinstance(v, type):
            if ours(v.__module__):
                return class_desc(v)
            if v.__module__ == "builtins" and getattr(builtins, v.__name__, None) is v:
                return {"t": "bi", "name": v.__name__}
            d = outside(v)
            if d is not None:
                return d
            raise Unencodable("the class %s.%s" % (v.__module__, v.__qualname__))
        if isinstance(v, BaseException):
            return exc_desc(v)
        if ours(t.__module__):
            return {"t": "h", "id": keep(v), "cls": class_desc(t)}
        if callable(v) and ours(getattr(v, "__module__", None) or ""):
            # A function of the target's under a decorator's wrapper
            # (functools.lru_cache, wraps).
            return {"t": "h", "id": keep(v), "kind": "fn", "name": getattr(v, "__name__", "")}
        if t is types.GeneratorType:
            # Its values cross one by one, each checked as any value is.
            return {"t": "h", "id": keep(v), "kind": "gen", "name": v.__name__}
        if t is types.BuiltinFunctionType:
            if getattr(builtins, v.__name__, None) is v:
                return {"t": "bi", "name": v.__name__}
            owner = getattr(v, "__self__", None)
            if owner is not None and not isinstance(owner, ModuleType) and (id(owner) in ids or type(owner).__flags__ & IMMUTABLE_TYPE):
                # A method of an object that crosses (a match's group).
                return {"t": "h", "id": keep(v), "kind": "fn", "name": v.__name__}
            d = outside(v) if isinstance(owner, ModuleType) else None
            if d is not None:
                return d
            raise Unencodable("the built-in function %s" % v.__name__)
        if t in (types.FunctionType, types.MethodType, functools_partial):
            mod = getattr(v.__func__ if t is types.MethodType else v, "__module__", None)
            if mod is not None and ours(mod):
                return {"t": "h", "id": keep(v), "kind": "fn", "name": getattr(v, "__name__", "")}
            d = outside(v) if t is types.FunctionType else None
            if d is not None:
                return d
            raise Unencodable("%s from %s" % (t.__name__, mod))
        if t.__module__ in ("builtins", "itertools") and hasattr(t, "__next__"):
            return {"t": "h", "id": keep(v), "kind": "iter", "name": t.__name__}
        if t.__flags__ & IMMUTABLE_TYPE:
            # An object of a type no code can change (a sentinel object(),
            # a match of re): its comparisons and truth are the type's own.
            return {"t": "h", "id": keep(v), "kind": "obj", "name": t.__name__}
        raise Unencodable("%s.%s" % (t.__module__, t.__qualname__))

    def exc_desc(e):
        t = type(e)
        try:
            args = encode(list(e.args), handle)
        except Unencodable:
            args = [str(e)]
        attrs = []
        for k, x in list(getattr(e, "__dict__", {}).items())[:20]:
            if isinstance(k, str) and not k.startswith("__"):
                try:
                    attrs.append([k, encode(x, handle)])
                except Unencodable:
                    pass
        d = {"t": "exc", "args": args, "attrs": attrs, "module": t.__module__, "name": t.__qualname__}
        if ours(t.__module__):
            d["cls"] = class_desc(t)
        return d

    def resolve(v):
        if v.get("t") == "ref":
            return objects[v["id"]]
        if v.get("t") == "bi":
            return getattr(builtins, v["name"])
        if v.get("t") == "bim":
            return getattr(getattr(builtins, v["type"]), v["name"])
        raise ValueError("an unknown value %r" % (v.get("t"),))

    def unpack(v):
        return decode(v, resolve)

    import functools

    functools_partial = functools.partial

    def load():
        """The target's module from the source Go sent, imported by its
        name: a finder gives the source when the import system (or the
        package's own __init__, importing it while it loads) asks for
        it."""
        import importlib.abc
        import importlib.util

        path = cfg["path"]

        class Source(importlib.abc.MetaPathFinder, importlib.abc.Loader):
            def find_spec(self, name, p=None, target=None):
                if name != module_name:
                    return None
                return importlib.util.spec_from_file_location(
                    name, path, loader=self,
                    submodule_search_locations=[os.path.dirname(path)] if cfg.get("package") else None)

            def create_module(self, spec):
                return None

            def exec_module(self, mod):
                exec(compile(cfg["source"], path, "exec", dont_inherit=True), mod.__dict__)

        sys.meta_path.insert(0, Source())
        return importlib.import_module(module_name)

    targets.add(module_name)
    for extra in cfg.get("own") or ():
        targets.add(extra)
    failed = None
    setup_cpu = float(cfg.get("setup_cpu") or 10)
    out, err = io.StringIO(), io.StringIO()
    real_out, real_err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    signal.setitimer(signal.ITIMER_PROF, setup_cpu)
    try:
        mod = load()
    except CPUTimeout:
        failed = {"timeout": "the module's import ran past %gs of CPU time" % setup_cpu}
        mod = None
    except BaseException as e:
        failed = {"raise": exc_desc(e)}
        mod = None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        sys.stdout, sys.stderr = real_out, real_err
    startup = (out.getvalue(), err.getvalue())

    binop = {
        "__lt__": operator.lt, "__le__": operator.le, "__gt__": operator.gt, "__ge__": operator.ge,
        "__eq__": operator.eq, "__ne__": operator.ne,
    }
    ops = {
        "__len__": len, "__iter__": iter, "__next__": next, "__getitem__": operator.getitem,
        "__setitem__": operator.setitem, "__delitem__": operator.delitem, "__contains__": operator.contains,
        "__bool__": bool, "__repr__": repr, "__str__": str, "__hash__": hash, "__reversed__": reversed,
        "__add__": operator.add, "__sub__": operator.sub, "__mul__": operator.mul, "__truediv__": operator.truediv,
        "__floordiv__": operator.floordiv, "__mod__": operator.mod, "__pow__": operator.pow, "__matmul__": operator.matmul,
        "__and__": operator.and_, "__or__": operator.or_, "__xor__": operator.xor, "__lshift__": operator.lshift,
        "__rshift__": operator.rshift, "__neg__": operator.neg, "__pos__": operator.pos, "__abs__": abs,
        "__invert__": operator.invert, "__int__": int, "__float__": float, "__index__": operator.index,
        "__format__": format, "__call__": lambda f, *a, **k: f(*a, **k),
        "__enter__": lambda o: type(o).__enter__(o), "__exit__": lambda o, *a: type(o).__exit__(o, *a),
        # copy.copy and copy.deepcopy of an object of the target's copy it
        # where it lives (the tests' memo cannot cross).
        "__copy__": lambda o: copy.copy(o), "__deepcopy__": lambda o: copy.deepcopy(o),
    }
    for n, f in list(ops.items()):
        if n in ("__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__", "__pow__", "__matmul__",
                 "__and__", "__or__", "__xor__", "__lshift__", "__rshift__"):
            ops["__r" + n[2:]] = (lambda g: lambda o, x: g(x, o))(f)
    ops.update(binop)

    def serve(req):
        op = req["op"]
        if op == "begin":
            t = float(req.get("cpu") or 0)
            if t > 0:
                signal.setitimer(signal.ITIMER_PROF, t)
            return None
        if op == "end":
            signal.setitimer(signal.ITIMER_PROF, 0)
            return None
        if mod is None:
            raise Replied(failed)
        if op == "mod":
            return getattr(mod, req["name"])
        if op == "setmod":
            setattr(mod, req["name"], unpack(req["v"]))
            return None
        if op == "delmod":
            delattr(mod, req["name"])
            return None
        if op == "dir":
            names = getattr(mod, "__all__", None)
            if names is None:
                names = [n for n in vars(mod) if not n.startswith("_")]
            return [n for n in names if type(n) is str]
        if op == "call":
            f = objects[req["f"]]
            args, kw = unpack(req["a"]), unpack(req["k"])
            if has_mutable([args, kw]):
                after[0] = [args, [v for _, v in kw]]
            return f(*args, **dict(kw))
        if op == "get":
            return getattr(objects[req["o"]], req["name"])
        if op == "set":
            setattr(objects[req["o"]], req["name"], unpack(req["v"]))
            return None
        if op == "del":
            delattr(objects[req["o"]], req["name"])
            return None
        if op == "op":
            name = req["name"]
            f = ops.get(name)
            if f is None:
                raise TypeError("no operation %s" % name)
            r = f(objects[req["o"]], *unpack(req["a"]))
            if name in binop or name == "__contains__":
                if r is not NotImplemented and type(r) is not bool:
                    raise Replied({"bad": "%s returned a %s, not a bool" % (name, type(r).__name__)})
            return r
        if op == "plain":
            o = objects[req["o"]]
            for b in type(o).__mro__:
                if b.__module__ == "builtins" and b.__name__ in PLAIN_NAMES:
                    return b(o)
            raise TypeError("not a plain value")
        raise ValueError("unknown request %r" % op)

    after = [None]  # the arguments of the running call, when it could change them

    class Replied(Exception):
        def __init__(self, reply):
            self.reply = reply

    first = True
    while True:
        try:
            req = receive(rfd)
        except EOFError:
            os._exit(0)
        out, err = io.StringIO(), io.StringIO()
        if first:
            out.write(startup[0])
            err.write(startup[1])
            first = False
        sys.stdout, sys.stderr = out, err
        try:
            r = serve(req)
            try:
                reply = {"ok": encode(r, handle)}
            except Unencodable as e:
                reply = {"bad": "the code under test returned %s, which does not cross to the tests" % e}
        except Replied as e:
            reply = dict(e.reply)
        except CPUTimeout:
            reply = {"timeout": True}
        except BaseException as e:
            try:
                reply = {"raise": exc_desc(e)}
            except CPUTimeout:
                reply = {"timeout": True}
        finally:
            sys.stdout, sys.stderr = real_out, real_err
        if after[0] is not None:
            # The arguments as the call left them: the tests' copies
            # change in place as the test's own objects would have.
            try:
                reply["after"] = encode(after[0], handle)
            except BaseException:
                pass
            after[0] = None
        reply["out"], reply["err"] = out.getvalue()[: 1 << 20], err.getvalue()[: 1 << 20]
        try:
            send(wfd, reply)
        except CPUTimeout:
            send(wfd, {"timeout": True})


# -------------------------------------------------------------------- tests


class CannotCross(BaseException):
    """What the candidate handed back does not cross: a wrong answer.
    (Not an Exception: pytest.raises(Exception) does not catch it.)"""


class Uncrossable(BaseException):
    """What the tests hand to the code under test does not cross: the
    test is judged in-process instead."""


class Gone(BaseException):
    """The code under test's process stopped answering."""


# A test's crossings to the code under test (calls, attributes, items,
# each a round trip between the two processes; not the collection's)
# past which it is not judged apart: it fails as timed out, for the original as for a fix, so
# that the check holds nothing of it against a fix. At tens of
# microseconds a crossing, a test that takes ten million values from a
# target's iterator would have run for minutes.
MAX_CROSSINGS = 100_000


def tests(cfg, rfd, wfd):
    import builtins
    import importlib

    module_name = cfg["module"]
    dead = [None]
    uncrossable = {}  # node id -> why
    current = [None]  # the running test's node id
    proxies = {}  # handle id -> proxy
    classes = {}  # handle id of a class -> proxy class
    crossed = [None, 0]  # the test counted, its crossings

    def request(req, args=None):
        if dead[0]:
            raise Gone(dead[0])
        if current[0] is not None and req.get("op") not in ("begin", "end"):
            if crossed[0] != current[0]:
                crossed[0], crossed[1] = current[0], 0
            crossed[1] += 1
            if crossed[1] > MAX_CROSSINGS:
                raise Timeout("crossed to the code under test's process more than %d times: too many to judge apart"
                              % MAX_CROSSINGS)
        try:
            send(wfd, req)
            reply = receive(rfd)
        except (EOFError, OSError, ValueError) as e:
            dead[0] = "the code under test's process ended" if isinstance(e, (EOFError, OSError)) else "it sent %s" % one_line(e)
            raise Gone(dead[0])
        except BaseException:
            # A timeout while it worked: its answer would come out of turn.
            dead[0] = "the code under test stopped answering (it ran past a test's time limit)"
            raise
        if reply.get("out"):
            sys.stdout.write(reply["out"])
        if reply.get("err"):
            sys.stderr.write(reply["err"])
        try:
            if args is not None and "after" in reply:
                write_back(args, decode(reply["after"], value))
            if "ok" in reply:
                return decode(reply["ok"], value)
            if "raise" in reply:
                e = exception(reply["raise"])
            else:
                e = None
        except CannotCross:
            raise
        except Exception as e:
            raise CannotCross("an answer the tests cannot read (%s)" % one_line(e))
        if e is not None:
            raise e
        if "timeout" in reply:
            t = reply["timeout"]
            raise Timeout(t if isinstance(t, str) else "timed out after %gs of CPU time" % float(cfg.get("timeout") or 0))
        raise CannotCross(str(reply.get("bad") or "an answer the tests cannot read"))

    def crossing(v, depth=0):
        """v as it crosses to the code under test."""
        if isinstance(v, Handle) or isinstance(type(v), HandleMeta):
            return {"t": "ref", "id": object.__getattribute__(v, "_i") if isinstance(v, Handle) else v._c}
        if isinstance(v, type) and v.__module__ == "builtins" and getattr(builtins, v.__name__, None) is v:
            return {"t": "bi", "name": v.__name__}
        t = type(v)
        if t.__name__ == "builtin_function_or_method" and getattr(builtins, getattr(v, "__name__", ""), None) is v:
            return {"t": "bi", "name": v.__name__}
        if t.__name__ == "method_descriptor":
            owner = v.__objclass__
            if owner.__module__ == "builtins" and getattr(builtins, owner.__name__, None) is owner:
                return {"t": "bim", "type": owner.__name__, "name": v.__name__}
        raise Unencodable("%s.%s" % (t.__module__, t.__qualname__))

    def send_value(v):
        try:
            return encode(v, crossing)
        except Unencodable as e:
            why = "it passes the code under test a %s, which does not cross" % e
            uncrossable.setdefault(current[0] or "", why)
            raise Uncrossable(why)

    def ext_class(d, functions=False):
        """A class from outside the target that the tests' process already
        has (builtins, the standard library, an installed package), never
        one of the test machinery's; with functions, a function too."""
        m, name = d.get("module", ""), d.get("name", "")
        if m == "builtins":
            c = getattr(builtins, name, None)
        elif m.split(".")[0] in OUTCOME_MODULES or m == module_name or m.startswith(module_name + ".") or test_module(m):
            c = None
        else:
            c = sys.modules.get(m)
            for part in name.split("."):
                c = getattr(c, part, None) if c is not None else None
        if functions and type(c) in FUNCTION_TYPES:
            return c if c.__module__ == m else None
        if not isinstance(c, type):
            return None
        for b in c.__mro__:
            if b.__module__.split(".")[0] in OUTCOME_MODULES:
                return None
        return c

    def test_module(m):
        """m is a module of the tests' (a test file or a conftest.py)."""
        f = os.path.basename(getattr(sys.modules.get(m), "__file__", None) or "")
        return f == "conftest.py" or f.startswith("test_") or f.endswith("_test.py")

    def proxy_class(d):
        h = d["id"]
        c = classes.get(h)
        if c is not None:
            return c
        if "name" not in d:
            raise CannotCross("a class it never described")
        bases = []
        for b in d.get("bases") or ():
            if b.get("t") == "cls":
                bases.append(proxy_class(b))
            else:
                e = ext_class(b)
                if e is not None and (d.get("exc") or not issubclass(e, BaseException)):
                    if d.get("exc") or e.__module__ != "builtins":
                        bases.append(e)
        if d.get("exc"):
            bases = [b for b in bases if issubclass(b, BaseException)] or [Exception]
            ns = {"__module__": d.get("module") or module_name, "__qualname__": d.get("qualname") or d["name"]}
            try:
                c = type(d["name"], tuple(bases), ns)
            except TypeError:
                c = type(d["name"], (Exception,), ns)
        else:
            bases = [b for b in bases if isinstance(b, HandleMeta)] or [Handle]
            ns = {"__module__": d.get("module") or module_name, "__qualname__": d.get("qualname") or d["name"], "_c": h, "_plain": d.get("plain")}
            try:
                c = HandleMeta(d["name"], tuple(bases), ns)
            except TypeError:
                c = HandleMeta(d["name"], (Handle,), ns)
        classes[h] = c
        return c

    def exception(d):
        if d.get("t") != "exc":
            return CannotCross("an exception the tests cannot read")
        args = decode(d.get("args") or [], value)
        if not isinstance(args, list):
            args = [args]
        c = ext_class(d) if d.get("module") != module_name else None
        if c is None and "cls" in d:
            c = proxy_class(d["cls"])
        else:
            if c is None or not issubclass(c, BaseException):
                return CannotCross("it raised %s.%s, which does not cross to the tests" % (d.get("module"), d.get("name")))
            if c is KeyboardInterrupt or c is GeneratorExit:
                return CannotCross("it raised %s" % c.__name__)
        try:
            e = c.__new__(c, *args)
            e.args = tuple(args)
        except BaseException:
            e = c.__new__(c)
            e.args = tuple(args)
        for k, x in d.get("attrs") or ():
            try:
                setattr(e, k, decode(x, value))
            except BaseException:
                pass
        return e

    def value(d):
        t = d.get("t")
        if t == "exc":
            return exception(d)
        if t == "bi":
            v = getattr(builtins, d.get("name", ""), None)
            if v is None:
                raise CannotCross("a built-in it named that does not exist")
            return v
        if t == "cls":
            return proxy_class(d)
        if t == "ext":
            v = ext_class(d, True)
            if v is None:
                raise CannotCross("%s.%s, which the tests' process does not have" % (d.get("module"), d.get("name")))
            return v
        if t == "h":
            h = d["id"]
            p = proxies.get(h)
            if p is None:
                if "cls" in d:
                    c = proxy_class(d["cls"])
                    if issubclass(c, BaseException):
                        raise CannotCross("an exception object it handed back")
                else:
                    c = {"fn": FunctionHandle, "gen": IterHandle, "iter": IterHandle, "obj": Handle}.get(d.get("kind"))
                    if c is None:
                        raise CannotCross("an object the tests cannot read")
                p = object.__new__(c)
                object.__setattr__(p, "_i", h)
                if isinstance(d.get("name"), str):
                    names[h] = d["name"]
                if d.get("kind") == "gen":
                    p = pull(p)  # a generator of the tests': isinstance(x, GeneratorType) holds
                proxies[h] = p
            return p
        raise CannotCross("a value the tests cannot read (%r)" % (t,))

    def pull(h):
        while True:
            try:
                x = op(h, "__next__")
            except StopIteration:
                return
            yield x

    def op(p, name, *args):
        return request({"op": "op", "o": object.__getattribute__(p, "_i"), "name": name, "a": send_value(list(args))})

    class HandleMeta(type):
        """The class of a proxy class: the target's class crosses."""

        def subclassed(cls):
            if "_c" not in cls.__dict__:
                # A class of the test file's that derives from the
                # target's: its objects would be the target's own, and so
                # would what its class methods make (Sub.parse(...) a
                # Version, not a Sub).
                why = "it subclasses the target's class %s, which does not cross" % cls.__mro__[1].__name__
                uncrossable.setdefault(current[0] or "", why)
                raise Uncrossable(why)

        def __call__(cls, *a, **k):
            cls.subclassed()
            return request({"op": "call", "f": cls._c, "a": send_value(list(a)), "k": send_value(list(k.items()))}, [list(a), list(k.values())])

        def __getattr__(cls, name):
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(name)
            cls.subclassed()
            return request({"op": "get", "o": cls._c, "name": name})

        def __iter__(cls):
            return request({"op": "op", "o": cls._c, "name": "__iter__", "a": []})

        def __len__(cls):
            return request({"op": "op", "o": cls._c, "name": "__len__", "a": []})

        def __getitem__(cls, k):
            return request({"op": "op", "o": cls._c, "name": "__getitem__", "a": send_value([k])})

        def __contains__(cls, k):
            return request({"op": "op", "o": cls._c, "name": "__contains__", "a": send_value([k])})

    class Handle(metaclass=HandleMeta):
        """An object of the target's, in the candidate's process."""

        __slots__ = ("_i",)
        _c = 0
        _plain = None

        def __getattr__(self, name):
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(name)
            return request({"op": "get", "o": object.__getattribute__(self, "_i"), "name": name})

        def __setattr__(self, name, v):
            request({"op": "set", "o": object.__getattribute__(self, "_i"), "name": name, "v": send_value(v)})

        def __delattr__(self, name):
            request({"op": "del", "o": object.__getattribute__(self, "_i"), "name": name})

        def __eq__(self, other):
            if isinstance(other, Handle):
                return op(self, "__eq__", other)
            if type(self)._plain is not None:
                return request({"op": "plain", "o": object.__getattribute__(self, "_i")}) == other
            return NotImplemented

        def __ne__(self, other):
            r = self.__eq__(other)
            return r if r is NotImplemented else not r

        def __hash__(self):
            return op(self, "__hash__")

        def __repr__(self):
            return op(self, "__repr__")

        def __str__(self):
            return op(self, "__str__")

        def __format__(self, spec):
            return op(self, "__format__", spec)

        def __copy__(self):
            return op(self, "__copy__")

        def __deepcopy__(self, memo):
            return op(self, "__deepcopy__")

        def __reduce_ex__(self, protocol):
            # A pickle of a proxy would name a class the tests' process
            # does not have: the test is judged in-process instead.
            why = "it pickles an object of the target's class %s, which does not cross" % type(self).__name__
            uncrossable.setdefault(current[0] or "", why)
            raise Uncrossable(why)

    names = [
        "__len__", "__iter__", "__next__", "__getitem__", "__setitem__", "__delitem__", "__contains__", "__bool__",
        "__reversed__", "__lt__", "__le__", "__gt__", "__ge__", "__neg__", "__pos__", "__abs__", "__invert__",
        "__int__", "__float__", "__index__", "__call__", "__enter__", "__exit__",
    ]
    for n in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor", "lshift", "rshift"):
        names += ["__%s__" % n, "__r%s__" % n]
    for n in names:
        setattr(Handle, n, (lambda n: lambda self, *a: op(self, n, *a))(n))

    def lt_guard(n):
        base = getattr(Handle, n)

        def cmp(self, other):
            if not isinstance(other, Handle) and type(self)._plain is not None:
                return getattr(request({"op": "plain", "o": object.__getattribute__(self, "_i")}), n)(other)
            return base(self, other)

        return cmp

    for n in ("__lt__", "__le__", "__gt__", "__ge__"):
        setattr(Handle, n, lt_guard(n))

    names = {}  # handle id of a function -> its name (pytest's parametrize ids read __name__)

    class FunctionHandle(Handle):
        __slots__ = ()

        @property
        def __name__(self):
            return names.get(object.__getattribute__(self, "_i"), "function")

        def __call__(self, *a, **k):
            return request({"op": "call", "f": object.__getattribute__(self, "_i"), "a": send_value(list(a)), "k": send_value(list(k.items()))}, [list(a), list(k.values())])

    class IterHandle(Handle):
        __slots__ = ()

        def __iter__(self):
            return self

    FunctionHandle._plain = IterHandle._plain = None

    class StandIn(ModuleType):
        """The target's module in the tests' process."""

        def __getattr__(self, name):
            if name.startswith("__") and name.endswith("__") and name not in ("__all__", "__version__"):
                raise AttributeError(name)
            if name == "__all__":
                return request({"op": "dir"})
            return request({"op": "mod", "name": name})

        def __setattr__(self, name, v):
            if name.startswith("__") and name.endswith("__"):
                ModuleType.__setattr__(self, name, v)
                return
            request({"op": "setmod", "name": name, "v": send_value(v)})

        def __delattr__(self, name):
            request({"op": "delmod", "name": name})

        def __dir__(self):
            return list(request({"op": "dir"}))

    standin = StandIn(module_name)
    ModuleType.__setattr__(standin, "__file__", cfg["target_file"])
    ModuleType.__setattr__(standin, "__package__", module_name if cfg.get("package") else module_name.rpartition(".")[0])
    if cfg.get("package"):
        ModuleType.__setattr__(standin, "__path__", [os.path.dirname(cfg["target_file"])])
    sys.modules[module_name] = standin
    parent, _, leaf = module_name.rpartition(".")
    if parent:
        try:
            setattr(importlib.import_module(parent), leaf, standin)
        except BaseException:
            pass  # the tests' own import of the package will say why
    return request, uncrossable, current


def preload():
    """Import pytest and the modules of its installed plugins."""
    try:
        import importlib.metadata

        import pytest  # noqa: F401

        for ep in importlib.metadata.entry_points(group="pytest11"):
            try:
                __import__(ep.value.split(":")[0])
            except BaseException:
                pass
    except BaseException:
        pass


def split_main():
    """The entry of both roles (this file runs with plain.py after it)."""
    role = sys.argv[1] if len(sys.argv) > 1 else ""
    if role == "tests":
        # While Go has not sent the configuration (a spare started ahead
        # of its run): pytest and its plugins' modules load.
        roomy_threads()
        preload()
    cfg = json.loads(sys.stdin.read())
    STD.update(std_types())
    if role == "candidate":
        candidate(cfg, 3, 4)
        return
    out = os.fdopen(3, "w")
    request, uncrossable, current = tests(cfg, 5, 4)
    cpu = float(cfg.get("timeout") or 0)

    def begin(item):
        current[0] = item.nodeid
        try:
            request({"op": "begin", "cpu": cpu})
        except BaseException:
            pass  # the test's first use of the target says why

    def end(item):
        current[0] = None
        try:
            request({"op": "end"})
        except BaseException:
            pass

    def select():
        # Go's selection (fd 7), written before the code under test's
        # configuration: here once the tests are collected.
        with os.fdopen(7, "rb") as f:
            return json.loads(f.read() or b"null")

    results = run_pytest(cfg, begin, end, select)
    if "" in uncrossable:
        # The test file's own module code (collection) handed the target
        # what cannot cross: every test is judged in-process.
        results["uncrossable"] = uncrossable[""]
    for t in results["tests"]:
        why = uncrossable.get(t["id"])
        if why and t["outcome"] != "passed":
            t["outcome"], t["detail"] = "uncrossable", why
    out.write(json.dumps(results))
    out.flush()
    os._exit(0)
