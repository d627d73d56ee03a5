"""The check of a delivered fix against a test file, in servers of its own
(the suite's "verify"): what a test case's verdict must survive besides
the test's own asserts, which run next to the code under test.

In such a server an audit hook (sys.addaudithook: it cannot be removed)
is installed before pytest and the target load, and the state of the test
machinery is recorded once they have (builtins, the harness's modules,
pytest's, pluggy's, doctest's, unittest's: the functions and classes
their dicts and their classes' dicts hold, functions' code; then, in each
child, the test file's; a child that configures pytest itself records the
machinery again once configured, see configured). A test case fails, with the
route named, when while it ran the code under test (a frame of the
target's files on the stack; the hook refuses these, raising
RuntimeError, so that what comes next never runs):

  - reached frames or objects it did not make: sys._getframe or
    inspect.currentframe called from it, a traceback's or generator's
    frame read by it, gc's listings, ctypes, a tracer or profiler set,
    /proc/self/mem opened;
  - set or deleted a function's code or defaults that are not its own;
  - returned to a test an object whose class, defined by the target,
    compares by an __eq__ (or __ne__) its class in the original program
    does not define;

or when after it anything recorded of the test machinery had changed (a
patched runtest, verdict function, report, doctest checker, a test
function's __code__). The child then ends (the session may be
corrupted) and the next case runs in a fresh one; after a refused route
alone (nothing reached) the next case runs in the same child.

Owns ON, MODULE, TAINT (the routes the running case took: the hook
appends), ACTIVE, SETS (the attributes set or deleted so far: the hook
counts) and AUDITED (whether that counts every change of a function's
code or defaults), ORIGINAL_EQ (the original's classes that define
__eq__ or __ne__), the snapshots (SNAPS: the server's, the test file's,
each with quick's baseline; HARNESS, the modules of the server's), EARLY
(what changed before a child configured pytest) and END (the end of a
case, a closure bound before any code under test runs).
"""
import os
import sys
from itertools import chain, repeat
from operator import attrgetter, eq, is_, methodcaller

from .protocol import RTE

FunctionType = type(lambda: None)

ON = False  # the server checks delivered fixes
MODULE = ""  # the target's module name
TAINT = []  # what the running case's code under test did (hook)
ACTIVE = [False]  # a case is running: the hook records
SETS = [0]  # attributes set or deleted on any object so far (hook): quick reads it
AUDITED = False  # every way of setting a function's code or defaults counts in SETS (probe_sets)
ORIGINAL_EQ = frozenset()  # class names of the original that define __eq__ or __ne__
SNAPS = [None, None]  # the test machinery as loaded (server), the test file's module (child)
END = None  # end(result): the end of a case (make_end)
HARNESS = []  # the harness's modules (take_server_snapshot)
# The code of the harness's own reads of a frame, which the hook lets
# through unexamined (exempt): id -> code, by identity (an equal code
# object compiled by the code under test is not it).
EXEMPT = {}
CLEAN = {}  # id -> a type check_result found clean in the running case (kept alive: its id stays its own)
CLEAN_SETS = [-1]  # SETS when CLEAN was filled: an attribute set since may have given a type an __eq__
EARLY = [None]  # what changed before a child configured pytest itself (configured)
TAG = None  # TAG(d): a view of dict d's version tag (make_tag), or None where it cannot be read
candidate_doctest = [False]  # the suite is a doctest suite (configure)

FRAME_ATTRS = frozenset(("tb_frame", "gi_frame", "cr_frame", "ag_frame", "gi_code", "cr_code", "ag_code"))
MACHINERY = ("builtins", "pytest", "_pytest", "pluggy", "doctest", "unittest", "iniconfig")


def configure(cfg, files, module):
    """Switches the check on for the suite cfg: the hook, watching frames
    of files (the target's) and objects of module; ORIGINAL_EQ from the
    original's source."""
    global ON, ORIGINAL_EQ, MODULE, END, AUDITED
    ON = bool(cfg.get("verify"))
    if not ON:
        return
    MODULE = module
    END = make_end()
    import ast

    eq = set()
    original = cfg.get("original") or ""
    try:
        # (No class defines what an ASCII source, whose names need no
        # normalising, never names: the parse of a 2,000-line target is
        # 9 ms of the server's start.)
        named = not original.isascii() or "__eq__" in original or "__ne__" in original
        for node in ast.walk(ast.parse(original if named else "")):
            if isinstance(node, ast.ClassDef):
                for b in node.body:
                    if isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)) and b.name in ("__eq__", "__ne__"):
                        eq.add(node.name)
                    if isinstance(b, ast.Assign) and any(getattr(t, "id", "") in ("__eq__", "__ne__") for t in b.targets):
                        eq.add(node.name)
    except (SyntaxError, ValueError, RecursionError):
        pass
    ORIGINAL_EQ = frozenset(eq)
    candidate_doctest[0] = bool(cfg.get("doctest"))
    global TAG
    TAG = make_tag()
    sys.addaudithook(make_hook(files, module))
    AUDITED = probe_sets()


def probe_sets():
    """Whether this interpreter audits (object.__setattr__,
    object.__delattr__) setting and deleting a function's code and
    defaults, each counted in SETS: while SETS stays as it was, quick
    does not read every function's. (CPython 3.11 does not audit setting
    a class's attributes: classes' dicts are always compared.)"""
    def f(a=1, *, b=2):
        pass

    code = f.__code__
    for step in (lambda: setattr(f, "__code__", code), lambda: setattr(f, "__defaults__", (1,)),
                 lambda: setattr(f, "__kwdefaults__", {"b": 2}), lambda: delattr(f, "__defaults__"),
                 lambda: delattr(f, "__kwdefaults__")):
        n = SETS[0]
        try:
            step()
        except BaseException:
            return False
        if SETS[0] == n:
            return False
    return True


def make_hook(files, module):
    """The audit hook: appends to TAINT what the code under test did."""
    getframe = sys._getframe
    busy = [False]
    taint, active, sets = TAINT, ACTIVE, SETS
    watch = frozenset((
        "sys._getframe", "sys._current_frames", "gc.get_objects", "gc.get_referrers", "gc.get_referents",
        "object.__getattr__", "object.__setattr__", "object.__delattr__", "sys.settrace", "sys.setprofile", "open",
    ))

    def under_test(f):
        """(the calling frame is the target's, a frame of the target is on
        the stack, the calling frame's file)"""
        first = f.f_code.co_filename
        mine = first in files
        on = mine
        while f is not None and not on:
            on = f.f_code.co_filename in files
            f = f.f_back
        return mine, on, first

    exempt = EXEMPT

    def hook(event, args):
        if event == "object.__setattr__" or event == "object.__delattr__":
            sets[0] += 1  # first: even within the hook (quick)
        if busy[0] or not active[0] or (event not in watch and not event.startswith("ctypes.")):
            return
        busy[0] = True
        what = None
        try:
            f = getframe(1)
            c = f.f_code
            if event == "sys._getframe" and exempt.get(id(c)) is c:
                return  # the harness's own (record.py's outside): no frame walk a call
            mine, on, caller = under_test(f)
            if not on:
                return
            what = None
            if event.startswith("ctypes.") or event.startswith("gc."):
                what = event
            elif event in ("sys._getframe", "sys._current_frames"):
                if mine or caller.endswith("inspect.py"):
                    what = event
            elif event in ("sys.settrace", "sys.setprofile"):
                if mine:
                    what = event
            elif event == "object.__getattr__":
                if mine and len(args) > 1 and args[1] in FRAME_ATTRS:
                    what = "reading ." + args[1]
            elif event in ("object.__setattr__", "object.__delattr__"):
                obj = args[0]
                if type(obj) is FunctionType and getattr(obj, "__module__", None) != module:
                    what = "changing %s.%s" % (getattr(obj, "__qualname__", "?"), args[1])
            elif event == "open":
                path = args[0]
                if isinstance(path, bytes):
                    path = path.decode("utf-8", "replace")
                if isinstance(path, str) and path.startswith("/proc/") and path.endswith("/mem"):
                    what = "opening " + path
            if what is not None and len(taint) < 8:
                taint.append(what)
        except BaseException:
            what = None
        finally:
            busy[0] = False
        if what is not None:
            # Refused, not only noted: code that ends its process next
            # (os._exit after writing records) must not have got there.
            raise RuntimeError("the check of a fix refuses the code under test: " + what)

    return hook


def snapshot(modules, base=False):
    """What a case must leave as it is of modules: the code their dicts and
    their classes' dicts hold (functions, methods, classes, descriptors:
    data attributes, which pytest itself sets as it runs, are left out),
    and their functions' code and defaults (then, with base, quick's
    baseline, and the dicts' version tags as they were before the copies
    were made)."""
    sets = SETS[0]
    found, funcs, seen = [], [], set()
    for m in modules:
        d = getattr(m, "__dict__", None)
        if type(d) is not dict or id(d) in seen:
            continue
        seen.add(id(d))
        found.append((d, getattr(m, "__name__", "a module")))
        for v in list(d.values()):
            if isinstance(v, type) and getattr(v, "__module__", None) == m.__name__ and id(v) not in seen:
                seen.add(id(v))
                found.append((v.__dict__, v.__qualname__))
                for f in list(v.__dict__.values()):
                    f = getattr(f, "__func__", f)
                    if type(f) is FunctionType:
                        funcs.append((f, f.__code__, f.__defaults__, f.__kwdefaults__))
            elif type(v) is FunctionType:
                funcs.append((v, v.__code__, v.__defaults__, v.__kwdefaults__))
    views = tags = None
    if base:
        views = tag_views([d for d, _ in found])
        tags = read_tags(views)
    dicts = [(d, {k: v for k, v in d.items() if code_like(v)}, name) for d, name in found]
    snap = [dicts, funcs, None]
    if base:
        snap[2] = baseline(snap, sets, views, tags)
    return snap


def code_like(v):
    """Whether v is code a test run calls (a function, a method, a class, a
    descriptor), not data."""
    return callable(v) or isinstance(v, (property, staticmethod, classmethod))


def changed(snap, benign=None, same=None, code_same=False):
    """The first thing of snap that changed, named, or None; benign(v),
    when given, says which values added to a dict do not count. same, when
    given, says which dicts hold what they held when this found nothing
    and no value that was data is code now (quick), and code_same that no
    function's code or defaults changed since: those are not read."""
    if snap is None:
        return None
    dicts, funcs = snap[0], snap[1]
    missing = changed  # any object that is not a value of the dicts
    for i, (d, copy, name) in enumerate(dicts):
        if same is not None and same[i]:
            continue
        for k, v in copy.items():
            if d.get(k, missing) is not v:
                return "%s of %s" % (k, name)
        if len(d) != len(copy):
            for k, v in list(d.items()):
                if k not in copy and code_like(v) and not (benign is not None and benign(v)):
                    return "%s of %s" % (k, name)
    if code_same:
        return None
    for f, code, defaults, kwdefaults in funcs:
        if f.__code__ is not code or f.__defaults__ is not defaults or f.__kwdefaults__ is not kwdefaults:
            return "the code of %s" % f.__qualname__
    return None


# Types whose instances can never become code (code_like): not callable,
# no subclass of a descriptor type, their __class__ not assignable, and
# the types themselves immutable.
# By id: hashing a type may run its metaclass's code.
INERT = frozenset(map(id, (str, int, float, complex, bool, type(None), bytes, tuple, frozenset, dict, list, set,
                           type(Ellipsis), type(NotImplemented), type(int.__dict__["real"]),
                           type(FunctionType.__dict__["__globals__"]), type(type.__dict__))))
DESCRIPTORS = (property, staticmethod, classmethod)
values_of = methodcaller("values")
code_of, defaults_of, kwdefaults_of = attrgetter("__code__"), attrgetter("__defaults__"), attrgetter("__kwdefaults__")


def baseline(snap, sets, views, tags):
    """The state of snap's dicts now, when changed(snap) is None and SETS
    was sets and the dicts' version tags were tags (views: read_tags) before
    it looked: every key and value (by identity), each dict's size, the
    values that are data (not in the snapshot's copy) and could become
    code."""
    dicts, funcs = snap[0], snap[1]
    ds = tuple(d for d, _, _ in dicts)
    data = tuple(v for d, copy, _ in dicts for k, v in d.items() if k not in copy and id(type(v)) not in INERT)
    return (ds, list(map(len, ds)), tuple(chain.from_iterable(ds)), tuple(chain.from_iterable(map(values_of, ds))),
            data, sets, tuple(f[0] for f in funcs), tuple(f[1] for f in funcs), tuple(f[2] for f in funcs),
            tuple(f[3] for f in funcs), views, tags)


def pytest_made(v):
    """Whether v, a value added to a dict of the machinery, is a fixture
    pytest's collection made: it gives each unittest class it collects
    its setup fixtures (_pytest/unittest.py), unittest's TestCase itself
    when a test file imports it under a name pytest collects (from
    unittest import TestCase), and a child collects after the server's
    snapshot (more-itertools' 586 tests each failed the check, the
    original's too, each in a fresh child)."""
    code = getattr(v, "__code__", None) if type(v) is FunctionType else None
    if code is not None:
        return PYTEST_DIR[0] is not None and code.co_filename.startswith(PYTEST_DIR[0])
    return type(v).__module__ == "_pytest.fixtures" and type(v).__name__ == "FixtureFunctionDefinition"


PYTEST_DIR = [None]  # pytest's package directory, with a final separator (configure)


def quick(snap):
    """changed(snap) with benign pytest_made, in C loops while nothing changed
    since the last time it found nothing (the baseline): when every dict
    holds the same keys and values (identical, in the same order) as
    then, the values that were data are still not code, and every
    function has its code and defaults, changed's loops, which read
    nothing else, would find nothing either. A dict whose version tag
    (TAG) is still the baseline's holds what it held then (every change
    to a dict gives it a new tag): its keys and values are read only when
    the tag changed, and a dict that changed and changed back gets the
    new tag as its baseline's (read before its keys and values were). The
    functions' code and defaults (an audited read: a call of the hook per
    function) are read only when an attribute was set or deleted since
    the baseline (SETS: the hook counts them), or the interpreter does
    not audit setting them (AUDITED). Otherwise changed decides and names
    the change, and a state it finds clean is the next baseline; it reads
    only the dicts whose tag changed when no value that was data is code
    now, and no function's code and defaults when quick would not.
    (docs/engines.md, "What a test file's verdict rests on")"""
    if snap is None:
        return None
    b = snap[2]
    views = same = now = None
    code_same = False
    if b is not None:
        ds, lens, keys, vals, data, sets, fs, codes, defaults, kwdefaults, views, tags = b
        now = None if views is None else list(map(tag_of, views))
        same = now is not None and now == tags
        if not same:
            same = (list(map(len, ds)) == lens and all(map(is_, chain.from_iterable(ds), keys))
                    and all(map(is_, chain.from_iterable(map(values_of, ds)), vals)))
            if same and now is not None:
                tags[:] = now
        inert = not any(map(callable, data)) and not any(map(isinstance, data, repeat(DESCRIPTORS)))
        code_same = AUDITED and SETS[0] == sets
        if (same and inert and (code_same or (all(map(is_, map(code_of, fs), codes))
                                              and all(map(is_, map(defaults_of, fs), defaults))
                                              and all(map(is_, map(kwdefaults_of, fs), kwdefaults))))):
            return None
        # Only the dicts whose tag changed can hold a change (when no
        # value that was data is code now).
        same = list(map(eq, now, tags)) if now is not None and inert else None
    sets = SETS[0]
    tags = now if now is not None else read_tags(views)
    what = changed(snap, pytest_made, same, code_same)
    if what is None:
        snap[2] = baseline(snap, sets, views, tags)
    return what


def make_tag():
    """TAG: a function that gives a view (ctypes' C half) of a dict's
    version tag (PEP 509: CPython 3.6 to 3.13 give a dict a new one at
    every change, from a counter of the interpreter's), or None where this
    interpreter's dicts have no such tag at the place read, as its own
    dicts, changed every way, show: then quick reads every key and value."""
    if not (3, 6) <= sys.version_info[:2] <= (3, 13) or sys.maxsize != (1 << 63) - 1:
        return None
    if getattr(sys, "_is_gil_enabled", lambda: True)() is not True or hasattr(sys, "gettotalrefcount"):
        return None  # free-threaded or debug builds lay objects out otherwise
    try:
        from _ctypes import _SimpleCData

        class U64(_SimpleCData):
            _type_ = "Q"

        class Used(_SimpleCData):
            _type_ = "q"

        def tag(d):
            return U64.from_address(id(d) + 24)

        class C:
            pass

        m = type(sys)("m")
        a, other = {}, {"k": 1}
        va, vo = tag(a), tag(other)
        o0 = vo.value

        def store(d):
            exec("g = 1\ndel g", d)

        steps = (lambda: a.__setitem__("x", 1), lambda: a.__setitem__("x", 2), lambda: a.__delitem__("x"),
                 lambda: a.setdefault("y", []), lambda: a.update(z=1), lambda: a.pop("z"),
                 lambda: a.popitem(), lambda: a.update({"w": 1, "v": 2}), lambda: a.clear(),
                 lambda: store(a), lambda: a.update(u=1))
        last = va.value
        for step in steps:
            step()
            t = va.value
            if t == last or va.value != t or Used.from_address(id(a) + 16).value != len(a) or vo.value != o0:
                return None
            last = t
        len(a), a.get("u"), list(a), list(a.values())
        if va.value != last:
            return None
        for obj in (C, m):
            d = real_dict(obj.__dict__)
            if d is None:
                return None
            v = tag(d)
            t = v.value
            setattr(obj, "k", 1)
            t1 = v.value
            delattr(obj, "k")
            if t1 == t or v.value == t1 or v.value == t:
                return None
        return tag
    except Exception:
        return None


MappingProxyType = type(type.__dict__)


def real_dict(d):
    """The dict d is, or a mappingproxy shows (a class's), or None."""
    if type(d) is dict:
        return d
    if type(d) is MappingProxyType:
        import gc

        r = gc.get_referents(d)
        if len(r) == 1 and type(r[0]) is dict:
            return r[0]
    return None


def tag_views(ds):
    """The views (TAG) of the version tags of the dicts ds (each a dict or
    a class's mappingproxy, which snapshot keeps and with them their
    dicts), or None."""
    if TAG is None:
        return None
    views = []
    for d in ds:
        d = real_dict(d)
        if d is None:
            return None
        views.append(TAG(d))
    return tuple(views)


tag_of = attrgetter("value")


def read_tags(views):
    """The tags views show now, or None."""
    return None if views is None else list(map(tag_of, views))


def take_server_snapshot(harness):
    """Records the test machinery once pytest (or the built-in runner) is
    loaded: the harness's modules and every loaded module of MACHINERY."""
    if not ON:
        return
    if candidate_doctest[0]:
        import doctest  # noqa: F401 -- the doctest runner's checker is machinery too
    HARNESS[:] = harness
    pt = sys.modules.get("_pytest")
    if PYTEST_DIR[0] is None and type(getattr(pt, "__file__", None)) is str:
        PYTEST_DIR[0] = os.path.join(os.path.dirname(pt.__file__), "")
    mods = list(harness)
    for name, m in list(sys.modules.items()):
        if m is not None and name.split(".")[0] in MACHINERY:
            mods.append(m)
    SNAPS[0] = snapshot(mods, True)


def before_configuring():
    """What of the test machinery changed since the server recorded it (a
    function's name), or None when nothing did and nothing is set to run
    code behind a case's back (a tracer, a profiler, a thread): a child
    that configures pytest itself asks before it begins (after the
    candidate's import), for configured."""
    import threading

    if not ON or SNAPS[0] is None:
        return None
    what = quick(SNAPS[0])
    if what is None and (sys.gettrace() is not None or sys.getprofile() is not None):
        what = "a tracer or profiler set"
    if what is None and threading.active_count() != 1:
        what = "a thread started"
    return what


def configured(before):
    """A child that configures pytest itself (a conftest file defines
    hooks, so the server could not) has: pytest's configuration changes
    its classes (its legacypath plugin sets Config._getini_unknown_type
    and adds properties; pytest-mock wraps Mock's assert methods), which
    the server's snapshot, taken before, would count against every case
    (each then ran in a fresh child and failed, the original's too: the
    check was blind and slow). The snapshot is taken again now, when
    nothing had changed before the configuration began (before:
    before_configuring); otherwise what the candidate's import changed
    is the change every case reports. What runs between is pytest, its
    plugins and the project's conftest files."""
    if not ON:
        return
    if before is None:
        take_server_snapshot(list(HARNESS))
    else:
        EARLY[0] = before


def took_test_module(m):
    """Records the test file's module once collected or loaded (a child's)."""
    if ON:
        SNAPS[1] = snapshot([m], True)


def begin():
    """Starts a case."""
    del TAINT[:]
    CLEAN.clear()
    ACTIVE[0] = True


def make_end():
    """END: the end of a case, bound to what it needs (the code under test
    may rebind this module's globals): end(result) is result, a case's
    (status, payload, detail), or the failure the check makes of it, and
    whether the child must end: when the machinery changed. A route the
    hook refused (a frame asked for, gc's listings) fails the case and
    reached nothing, so the next case runs in the same child (a target
    that reads frames itself, as semver's deprecation warnings do, fails
    each test without a fresh child for each)."""
    taint, active, snaps, diff, early = TAINT, ACTIVE, SNAPS, quick, EARLY

    def end(result):
        active[0] = False
        what = early[0] or diff(snaps[0]) or diff(snaps[1])
        why = None
        if taint:
            why = "the code under test reached the test machinery (%s)" % ", ".join(taint)
        elif what is not None:
            why = "the test machinery changed while the test ran (%s)" % what
        del taint[:]
        if why is None:
            return result, False
        return (RTE, b"", why), what is not None

    return end


def check_result(r):
    """Notes a value the target returned to a test that compares by an
    __eq__ (or __ne__) that its class in the original does not define. A
    type found clean is not looked at again in the case while no
    attribute was set anywhere (SETS): a test that takes ten million
    values from a target's iterator, from threads, timed out under the
    check."""
    t = type(r)
    if CLEAN_SETS[0] == SETS[0] and AUDITED and CLEAN.get(id(t)) is t:
        return
    for k in t.__mro__[:-1]:
        d = k.__dict__
        if k.__module__ == MODULE and ("__eq__" in d or "__ne__" in d) and k.__name__ not in ORIGINAL_EQ:
            if len(TAINT) < 8:
                TAINT.append("an object that compares by %s.__eq__, which the original does not define" % k.__qualname__)
            return
    if CLEAN_SETS[0] != SETS[0]:
        CLEAN.clear()
        CLEAN_SETS[0] = SETS[0]
    if len(CLEAN) < 256:
        CLEAN[id(t)] = t
