"""Recording the calls a test file makes into the target: the overfitting
guard's inputs for test-file suites (see guard/ in Go).

A run with RUN_RECORD (the original's run) wraps, once the candidate's
module is imported and before the test file is, the methods of its
classes; its top-level functions are wrapped where the test file holds
them (expose, once it is imported), never in the module itself, whose own
code may compare them by identity (tabulate's fmt.lineabove ==
_html_begin_table_without_header). A wrapper called from outside
the target (a test, a fixture, pytest, a helper module) records the call;
the target's own calls go through unrecorded. What a case recorded goes
into its record, as JSON (REC_CALLS):

  {"function": "f", "args": [...], "kwargs": {...}, "result": ..., "raised": "ValueError"}
      a call of a top-level function, or of a class's static or class
      method ("C.m"), whose arguments encode as the JSON suites' values do
      (None, bools, ints, finite floats, str, lists, dicts with str keys);
      the result when it does, the exception's class when it raised;
  {"function": "C", "args": [...], "kwargs": {...}, "then": [["m", [...], {...}], ...]}
      an object the test made (C(...)) with every method called on it from
      outside, in order: the guard replays it with one argument moved.

Calls whose arguments do not encode so are left out (an object's every
call must, or its life is left out). Owns CALLS (the running case's
calls), OBJECTS, KEEP and WRAPPED (a target function's id -> its wrapper,
for expose); install binds the rest in its wrappers.
"""
import math
import sys

FunctionType = type(lambda: None)

CALLS = None  # the running case's calls: a list of entries (dicts)
OBJECTS = {}  # id(object) -> its entry (a "then" entry, or None when it cannot be replayed)
KEEP = []  # the objects recorded, kept alive so that their ids stay theirs
WRAPPED = {}  # id of a top-level function of the target -> (the function, its wrapper)
OWN_FRAME_READS = []  # the code of install's frame read (the check's hook lets it through)

MAX_CALLS = 200  # entries of a case
MAX_STEPS = 50  # method calls of an object
MAX_TEXT = 4096  # characters of a call's arguments as JSON

# A class whose wrapped methods a case calls more often than HOT_CALLS
# gets its own methods back for the rest of the case, and its objects'
# entries stop (their calls would no longer all be seen): a test that
# drives ten million iterations through a target's __next__ (from
# threads, say) ran twenty times slower than under plain pytest, all of it
# in the wrappers. begin puts the wrappers back (COOLED).
HOT_CALLS = 10000
HOT = {}  # class -> calls of its wrapped methods in the running case
CLASSES = {}  # class -> [(attribute, the class's own value, its wrapper)], as install wrapped them
COOLED = []  # (class, attribute, wrapper) given back for the running case


def _json():
    """The json package, imported when a call is first recorded: a server
    imports only what it needs."""
    import json

    return json


def begin():
    """Starts recording a case."""
    global CALLS
    CALLS = []
    OBJECTS.clear()
    del KEEP[:]
    new_case()


def new_case():
    """Puts back the wrappers a case cooled (HOT_CALLS): begin's, and the
    check's at the start of each case (a run that checks results records
    nothing)."""
    HOT.clear()
    for cls, attr, w in COOLED:
        setattr(cls, attr, w)
    del COOLED[:]


def cool(cls):
    """Gives class cls its own methods back for the rest of the case
    (HOT_CALLS), and ends the entries of its objects."""
    for attr, own, w in CLASSES.get(cls, ()):
        if cls.__dict__.get(attr) is w:
            setattr(cls, attr, own)
            COOLED.append((cls, attr, w))
    for obj in KEEP:
        if isinstance(obj, cls):
            entry = OBJECTS.get(id(obj))
            if entry:
                entry["then"] = False


def take():
    """The running case's calls as JSON bytes (None: none), and stops."""
    global CALLS
    calls, CALLS = CALLS, None
    OBJECTS.clear()
    del KEEP[:]
    out = [c for c in calls or () if c.get("then") is not False]
    if not out:
        return None
    try:
        return _json().dumps(out, separators=(",", ":")).encode("utf-8", "surrogatepass")
    except (TypeError, ValueError):
        return None


def plain(v, depth=0):
    """Whether v encodes as a JSON suite's value does, and decodes back to
    an equal value of the same types."""
    t = type(v)
    if v is None or t is bool or t is int or t is str:
        return True
    if t is float:
        return math.isfinite(v)
    if depth > 20:
        return False
    if t is list:
        return all(plain(x, depth + 1) for x in v)
    if t is dict:
        return all(type(k) is str and plain(x, depth + 1) for k, x in v.items())
    return False


def encode(args, kwargs):
    """args and kwargs as JSON text, or None when they do not encode."""
    if not plain(list(args)) or not plain(kwargs):
        return None
    try:
        a, k = _json().dumps(list(args)), _json().dumps(kwargs) if kwargs else None
    except (TypeError, ValueError):
        return None
    if len(a) + len(k or "") > MAX_TEXT:
        return None
    return a, k


def install(d, files, check=None):
    """Wraps the functions and the classes' methods of module dict d, the
    target's, whose files are files: a call from outside them is recorded
    (while a case records: CALLS), and what it returns is given to check
    (verify.py), when not None."""
    getframe = sys._getframe

    def outside():
        try:
            return getframe(2).f_code.co_filename not in files
        except ValueError:
            return True

    OWN_FRAME_READS[:] = [outside.__code__]

    def returned(r):
        if check is not None:
            check(r)
        return r

    def wrap_function(f, name):
        def recorded(*args, **kwargs):
            calls = CALLS
            if check is None and (calls is None or len(calls) >= MAX_CALLS):
                return f(*args, **kwargs)  # nothing to record or check
            if not outside():
                return f(*args, **kwargs)
            if CALLS is None:
                return returned(f(*args, **kwargs))
            return returned(add_call(name, args, kwargs, lambda: f(*args, **kwargs)))

        return _like(recorded, f)

    def wrap_static(f, qual, is_class):
        def recorded(*args, **kwargs):
            if not outside():
                return f(*args, **kwargs)
            if CALLS is None:
                return returned(f(*args, **kwargs))
            a = args[1:] if is_class else args
            return returned(add_call(qual, a, kwargs, lambda: f(*args, **kwargs)))

        return _like(recorded, f)

    def wrap_method(f, cls, name, attr):
        init = attr == "__init__"

        def recorded(self, *args, **kwargs):
            if CALLS is not None and check is None:
                n = HOT.get(cls, 0) + 1
                HOT[cls] = n
                if n > HOT_CALLS:
                    cool(cls)
                    return f(self, *args, **kwargs)
            if not outside():
                return f(self, *args, **kwargs)
            if check is not None:
                # The check counts only the test's calls, which the code
                # under test cannot add to: past HOT_CALLS of them the
                # values the class's methods return to the test are no
                # longer looked at in the case.
                n = HOT.get(cls, 0) + 1
                HOT[cls] = n
                if n > HOT_CALLS:
                    cool(cls)
            if CALLS is not None:
                step(self, cls, name, attr, args, kwargs, init)
            return returned(f(self, *args, **kwargs))

        return _like(recorded, f)

    module = d.get("__name__")
    WRAPPED.clear()
    CLASSES.clear()
    for name, v in list(d.items()):
        if type(v) is FunctionType and v.__module__ == module:
            WRAPPED[id(v)] = (v, wrap_function(v, name))
        elif isinstance(v, type) and v.__module__ == module and v.__qualname__ == name:
            wrapped = CLASSES[v] = []
            for attr, m in list(v.__dict__.items()):
                if type(m) is FunctionType:
                    w = wrap_method(m, v, name, attr)
                elif type(m) in (staticmethod, classmethod) and type(m.__func__) is FunctionType:
                    w = type(m)(wrap_static(m.__func__, name + "." + attr, type(m) is classmethod))
                else:
                    continue
                setattr(v, attr, w)
                wrapped.append((attr, m, w))


def expose(d):
    """Puts install's wrappers of the target's top-level functions in the
    place of the functions in module dict d (the test file's): the calls
    the test file makes by those names are recorded."""
    for k, v in list(d.items()):
        w = WRAPPED.get(id(v))
        if w is not None and w[0] is v:
            d[k] = w[1]


def _like(w, f):
    for a in ("__module__", "__name__", "__qualname__", "__doc__"):
        try:
            setattr(w, a, getattr(f, a))
        except (AttributeError, TypeError):
            pass
    w.__wrapped__ = f
    return w


def add_call(name, args, kwargs, run):
    """Runs run() and records it as a call of name when it encodes."""
    enc = encode(args, kwargs) if len(CALLS) < MAX_CALLS else None
    if enc is None:
        return run()
    entry = {"function": name, "args": _json().loads(enc[0])}
    if enc[1] is not None:
        entry["kwargs"] = _json().loads(enc[1])
    CALLS.append(entry)
    try:
        r = run()
    except BaseException as e:
        entry["raised"] = type(e).__name__
        raise
    if plain(r):
        entry["result"] = _json().loads(_json().dumps(r))  # as it is now: the test may change it
    return r


def step(obj, cls, name, attr, args, kwargs, init):
    """Records method attr of a class named name called on obj."""
    key = id(obj)
    entry = OBJECTS.get(key, 0)
    if entry is None or (type(entry) is dict and (entry["then"] is False or init)):
        return  # nothing more to record of obj: its calls cost no encoding
    enc = encode(args, kwargs)
    if entry == 0:
        # An object the test made: its class's __init__ (the first call
        # seen), or a class without one of its own.
        if not init and type(obj).__init__ is not object.__init__:
            OBJECTS[key] = None  # made where we did not see it
            KEEP.append(obj)
            return
        if len(CALLS) >= MAX_CALLS:
            return
        entry = {"function": type(obj).__qualname__, "args": [], "then": []}
        if type(obj).__module__ != cls.__module__ or "." in entry["function"]:
            entry["then"] = False  # a class the target does not define at the top
        CALLS.append(entry)
        OBJECTS[key] = entry
        KEEP.append(obj)
        if init:
            if enc is None:
                entry["then"] = False
            else:
                entry["args"] = _json().loads(enc[0])
                if enc[1] is not None:
                    entry["kwargs"] = _json().loads(enc[1])
            return
    if entry is None or entry["then"] is False or init:
        return
    if enc is None or len(entry["then"]) >= MAX_STEPS:
        entry["then"] = False
        return
    entry["then"].append([attr, _json().loads(enc[0]), _json().loads(enc[1]) if enc[1] is not None else {}])


def replay(obj, steps):
    """Calls the steps ([method, args, kwargs] decoded from a case's then)
    on obj, the object a recorded call made: what each returned, objects
    without a value of their own by their class (the guard compares two
    programs' runs)."""
    return [steady(getattr(obj, m)(*a, **kw)) for m, a, kw in steps]


def steady(v, depth=0):
    """v with every object that has no value of its own (its class keeps
    object's __repr__, which shows an address) replaced by its class's
    name in angle brackets: equal in two runs that made alike objects."""
    t = type(v)
    if v is None or t in (bool, int, float, str, bytes):
        return v
    if depth > 20:
        return v
    if t is list or t is tuple:
        return t(steady(x, depth + 1) for x in v)
    if t is dict:
        return {k: steady(x, depth + 1) for k, x in v.items()}
    if t.__repr__ is object.__repr__:
        return "<%s>" % t.__qualname__
    return v