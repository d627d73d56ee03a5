"""Reuse of a child for pure candidates: which candidates are pure, and
the state of the preloaded modules a pure candidate must leave unchanged.

A fork per candidate costs far more than running a small candidate's cases
(copy-on-write faults of a CPython process). A candidate whose code can
only touch its own objects may therefore run in the child of the previous
candidate instead of a fresh fork, when that previous candidate was pure
too and provably left the process as it found it. "Pure" is decided
statically on the bytecode (pure_code: no name that reaches interpreter or
process state, imports only of preloaded modules of PURE_MODULES), and
checked again after the candidate (guard.py): builtins, the preloaded
modules and their classes unchanged, no new module, no process or thread
left, no MemoryError, no garbage with finalizers. Anything else gets a
fresh fork, exactly as without this optimisation.

Owns what take_snapshots records (DENY, REACH, GROUPS, BUILTINS_GROUP)
and STATIC_CHECK (configure).
"""
import sys

from .protocol import FORK_DUNDER, FORK_IMPORT, FORK_NAME, FORK_STRING

NoneType = type(None)
CodeType = type(compile("", "", "exec"))
FunctionType = type(lambda: None)
ModuleType = type(sys)
modules = sys.modules

STATIC_CHECK = True  # tests switch it off to see the guard alone catch what a pure candidate changed
REACH = {}  # pure module -> the mask of the pure modules it reaches (take_snapshots)
LOADED = ()  # the pure modules loaded, in the order of REACH's bits (take_snapshots)
MOD_DENY = {}  # pure module -> the names DENY has for it: its mutable attributes, the impure modules it holds
GROUPS = ()  # per pure module loaded, (its dicts, their copies) (take_snapshots)
BUILTINS_GROUP = []  # (dict, copy) of builtins and the pytest stand-in (take_snapshots)


def configure(static_check):
    """Sets whether the static check runs (the suite's static_check)."""
    global STATIC_CHECK
    STATIC_CHECK = static_check


PURE_MODULES = frozenset((
    "array", "bisect", "cmath", "collections", "collections.abc", "copy", "dataclasses",
    "datetime", "enum", "fractions", "functools", "heapq", "itertools", "json", "keyword",
    "math", "numbers", "operator", "pprint", "re", "statistics", "string", "textwrap",
    "time", "typing", "unicodedata",
))

# Modules whose import in code tells the compiler something and binds
# only their feature descriptors (from __future__ import annotations):
# allowed where the imports pure_code may allow are listed (imports: the
# isolation of a pytest session, collected.py, whose check also refuses a
# store into anything but a method's self).
COMPILE_TIME = frozenset(("__future__",))

# Names that reach the interpreter, other modules' globals, frames or the
# process. A candidate mentioning one is never run in a reused child.
DENY_NAMES = frozenset((
    "exec", "eval", "compile", "__import__", "open", "breakpoint", "help", "globals",
    "locals", "vars", "getattr", "setattr", "delattr", "exit", "quit",
    "__dict__", "__globals__", "__builtins__", "__subclasses__", "__self__", "__code__",
    "__closure__", "__func__", "__defaults__", "__kwdefaults__", "__setattr__",
    "__delattr__", "__getattribute__", "__reduce__", "__reduce_ex__", "__loader__",
    "__spec__", "__bases__", "__base__", "__mro__", "__del__", "__all__", "__traceback__",
    "__init_subclass__", "__set_name__", "__class_getitem__", "__wrapped__", "__getstate__",
    "__setstate__", "__objclass__", "__path__", "__cached__", "__annotations__", "__weakref__",
    "f_globals", "f_locals", "f_back", "f_builtins", "f_code", "f_trace", "tb_frame",
    "tb_next", "gi_frame", "gi_code", "cr_frame", "cr_code", "ag_frame", "ag_code",
    "register", "mro", "getcontext", "setcontext", "localcontext",
    "sys", "os", "builtins", "importlib", "gc", "ctypes", "signal", "threading", "_thread",
    "subprocess", "multiprocessing", "io", "socket", "select", "resource", "mmap", "atexit",
    "inspect", "pickle", "marshal", "tempfile", "shutil", "pathlib", "asyncio", "weakref",
    "warnings", "logging", "random", "decimal", "locale", "codecs", "posix",
    # The functions of the pure modules that read or write attributes,
    # items or code named at run time (so that no name above need appear),
    # or keep a registry that outlives a candidate: an audit of every
    # module of PURE_MODULES. Their mutable module attributes are denied
    # by take_snapshots.
    "attrgetter", "methodcaller",  # operator
    "Formatter", "get_field", "get_value", "vformat", "format_field",  # string
    "update_wrapper", "wraps", "singledispatch", "singledispatchmethod",  # functools
    "get_type_hints", "ForwardRef", "_evaluate", "_eval_type", "evaluate_forward_ref",  # typing
    "overload", "get_overloads", "clear_overloads",  # typing: a registry
    "modules", "_getframe", "settrace", "setprofile",
))

# Dunder names a pure candidate may hold as string constants (a constant
# such as "__globals__" would name what DENY_NAMES keeps out).
CONST_DUNDERS = frozenset(("__main__", "__init__", "__name__", "__doc__", "__module__", "__qualname__"))

# DENY_NAMES and the names of the pure modules' mutable attributes and of
# the modules they reach that are not pure (take_snapshots).
DENY = DENY_NAMES

_OPS = None


def _opcodes():
    """EXTENDED_ARG, IMPORT_NAME, the attribute stores, the global stores,
    and the bytes that are none of the last three (for bytes.translate: a
    code object's bytecode without them is empty when it has none of
    those instructions)."""
    global _OPS
    if _OPS is None:
        import opcode as dis  # its opmap, without dis's imports

        imp = dis.opmap["IMPORT_NAME"]
        stores = {dis.opmap[o] for o in ("STORE_ATTR", "DELETE_ATTR") if o in dis.opmap}
        gstores = {dis.opmap[o] for o in ("STORE_GLOBAL", "DELETE_GLOBAL") if o in dis.opmap}
        others = bytes(sorted(set(range(256)) - stores - gstores - {imp}))
        _OPS = (dis.opmap["EXTENDED_ARG"], imp, stores, gstores, others)
    return _OPS


def pure_code(code, extra_imports=(), checked=None, deny=None, imports=None, why=None, named=None):
    """(0, 0) if code (or a code object in it) is not pure (see above),
    else (1, or 2 when it also stores or deletes no attribute at all, or 3
    when it stores or deletes no global name either (see run_pure_calls),
    the mask of the pure modules it can reach). checked
    (default STATIC_CHECK) applies the static check of names; deny (default
    DENY) are the names it denies, imports (default: every pure module
    loaded) the modules it may import. why, a list, gets the reason
    of a (0, 0): FORK_NAME, FORK_IMPORT, FORK_DUNDER or FORK_STRING.
    named, a list, gets for a pure code whether a string constant of it
    names a denied attribute, which only a mask of 0 lets pass: code
    checked in parts (partial.py) is pure whole when every part is and,
    if any part names one, the parts' masks are all 0."""
    ext_op, import_op, store_ops, global_ops, others = _opcodes()
    attrs = gstores = False
    mask = 0
    reach = REACH
    if deny is None:
        deny = DENY
    deny_names = DENY_NAMES
    if checked is None:
        checked = STATIC_CHECK
    # A string constant that names a pure module's mutable attribute ("I"
    # and "M" of re, say) matters only to a candidate that can reach such
    # a module, by importing one: a Roman numeral table of "I", "X", "L",
    # "M" must not cost every candidate a fresh fork.
    module_names = False
    stack = [code]
    while stack:
        co = stack.pop()
        names = co.co_names
        if checked and not deny.isdisjoint(names):
            return _impure(why, FORK_NAME)
        b = co.co_code
        ext = 0
        # Most code objects have none of the instructions looked at (the
        # even bytes are the opcodes): their bytecode is not walked, which
        # in a large module cost more than the rest.
        for i in range(0, len(b) if b[::2].translate(None, others) else 0, 2):
            op = b[i]
            if op == ext_op:
                ext = (ext | b[i + 1]) << 8
                continue
            arg = ext | b[i + 1]
            ext = 0
            if op == import_op:
                name = names[arg]
                if name in extra_imports or imports is not None and name in COMPILE_TIME and name in imports:
                    continue
                if name not in PURE_MODULES or name not in modules or imports is not None and name not in imports:
                    return _impure(why, FORK_IMPORT)
                mask |= reach.get(name, 0)
            elif op in store_ops:
                attrs = True
                name = names[arg]
                if name.startswith("__") and name.endswith("__") and checked:
                    return _impure(why, FORK_DUNDER)
            elif op in global_ops:
                gstores = True
        consts = list(co.co_consts)
        while consts:
            k = consts.pop()
            t = type(k)
            if t is CodeType:
                stack.append(k)
            elif t is str and checked:
                if k in deny_names:
                    return _impure(why, FORK_NAME)
                if k[:2] == "__" and k[-2:] == "__" and k not in CONST_DUNDERS:
                    return _impure(why, FORK_DUNDER)
                if k in deny:
                    module_names = True
            elif t is tuple or t is frozenset:
                consts.extend(k)
    if module_names and mask:
        return _impure(why, FORK_STRING)
    if named is not None:
        named.append(module_names)
    return (1 if attrs else 2 if gstores else 3), mask


def _impure(why, reason):
    if why is not None:
        why.append(reason)
    return 0, 0


def imported_names(code):
    """The modules code imports (top-level names of IMPORT_NAME)."""
    ext_op, import_op = _opcodes()[:2]
    out = set()
    stack = [code]
    while stack:
        co = stack.pop()
        b = co.co_code
        ext = 0
        for i in range(0, len(b) if import_op in b[::2] else 0, 2):
            op = b[i]
            if op == ext_op:
                ext = (ext | b[i + 1]) << 8
                continue
            if op == import_op:
                out.add(co.co_names[ext | b[i + 1]])
            ext = 0
        stack.extend(k for k in co.co_consts if type(k) is CodeType)
    return out


def take_snapshots(names, pytest):
    """Preloads the pure modules among names and records the state a pure
    candidate must leave unchanged, by module: GROUPS[i] are the dicts of
    the i-th pure module loaded (its own, its classes', its objects'), and
    REACH[name] the mask of the modules one can reach from module name
    through module attributes (itself included), which the guard checks
    after a candidate that imports it. Extends DENY with the names of their
    mutable attributes and of the modules they reach that are not pure.
    pytest is the test file's pytest stand-in, or None."""
    global DENY, BUILTINS_GROUP, GROUPS, REACH
    names = set(names)
    if "collections" in names:
        names.add("heapq")  # imported lazily by Counter.most_common
    for name in sorted(names):
        if name in PURE_MODULES and name not in modules:
            try:
                __import__(name)
            except BaseException:
                pass
    import builtins

    immutable = (NoneType, bool, int, float, complex, str, bytes, tuple, frozenset, type, range)
    deny = set(DENY_NAMES)
    seen = set()

    def attrs(v, snaps):
        # Objects with attributes of their own (functions, enum members,
        # instances) are compared too: `math.floor.x = 1` must not go
        # unnoticed.
        if id(v) in seen or type(v) is ModuleType:
            return
        seen.add(id(v))
        try:
            d = object.__getattribute__(v, "__dict__")
        except (AttributeError, TypeError):
            return
        if type(d) is dict:
            snaps.append((d, dict(d)))

    loaded = sorted(n for n in PURE_MODULES if modules.get(n) is not None)
    index = {n: i for i, n in enumerate(loaded)}
    groups = []
    links = {}
    mod_deny = {}
    for name in loaded:
        m = modules[name]
        d = m.__dict__
        snaps = [(d, dict(d))]
        links[name] = {name}
        mine = set()  # what this module adds to DENY
        for k, v in list(d.items()):
            if type(v) is ModuleType:
                if v.__name__ not in PURE_MODULES:
                    mine.add(k)
                elif v.__name__ in index:
                    links[name].add(v.__name__)
            elif isinstance(v, type):
                if not v.__flags__ & (1 << 8) and id(v) not in seen:  # a class whose attributes can be set
                    seen.add(id(v))
                    snaps.append((v.__dict__, dict(v.__dict__)))
                    for ck, cv in list(v.__dict__.items()):
                        if not callable(cv) and not isinstance(cv, immutable) and not isinstance(cv, (property, classmethod, staticmethod)):
                            mine.add(ck)
                        attrs(cv, snaps)
            else:
                if not callable(v) and not isinstance(v, immutable):
                    mine.add(k)
                attrs(v, snaps)
        groups.append(snaps)
        deny |= mine
        mod_deny[name] = frozenset(mine)
    reach = {}
    for name in loaded:
        todo, got = [name], set()
        while todo:
            n = todo.pop()
            if n not in got:
                got.add(n)
                todo.extend(links.get(n, ()))
        mask = 0
        for n in got:
            mask |= 1 << index[n]
        reach[name] = mask
    always = [(builtins.__dict__, dict(builtins.__dict__))]
    if pytest is not None:  # the stand-in is shared by every candidate's tests too
        always.append((pytest.__dict__, dict(pytest.__dict__)))
        for v in list(pytest.__dict__.values()):
            if isinstance(v, type):
                always.append((v.__dict__, dict(v.__dict__)))
            else:
                attrs(v, always)
    global LOADED, MOD_DENY
    LOADED, MOD_DENY = tuple(loaded), mod_deny
    DENY = frozenset(deny)
    BUILTINS_GROUP = always
    GROUPS = tuple((tuple(d for d, _ in g), tuple(c for _, c in g)) for g in groups)
    REACH = reach


def refresh_snapshots():
    """Copies the dicts take_snapshots recorded again, as they are now:
    after the server's collection under pytest (collected.collect_once),
    which sets attributes of pytest's classes once (Function's
    _pytest_diamond_inheritance_warning_shown), what every fork of the
    server starts with."""
    global BUILTINS_GROUP, GROUPS
    BUILTINS_GROUP = [(d, dict(d)) for d, _ in BUILTINS_GROUP]
    GROUPS = tuple((ds, tuple(dict(d) for d in ds)) for ds, _ in GROUPS)


def deny_for(names):
    """DENY_NAMES and what DENY has for the pure modules names and those
    they reach: the names that code importing only names must not use
    (test selection under pytest, whose own imports load most of the
    standard library: DENY has names of every module loaded)."""
    mask = 0
    for n in names:
        mask |= REACH.get(n, 0)
    out = set(DENY_NAMES)
    for i, n in enumerate(LOADED):
        if mask >> i & 1:
            out |= MOD_DENY.get(n, frozenset())
    return frozenset(out)


_BUILTIN_TYPES = (type(len), type([].append))


def deeply_immutable(v):
    t = type(v)
    if t in (NoneType, bool, int, float, complex, str, bytes):
        return True
    if t is tuple or t is frozenset:
        return all(deeply_immutable(x) for x in v)
    return False


def reusable_value(k, v, d):
    """Whether value v of global k of module dict d would be the same (or
    an equivalent new immutable object) after executing the module again."""
    if k in ("__name__", "__doc__", "__package__", "__loader__", "__spec__", "__file__", "__builtins__"):
        return True
    t = type(v)
    if t is FunctionType:
        if v.__globals__ is not d:
            return getattr(v, "__module__", None) in PURE_MODULES  # from a pure module
        return (v.__globals__ is d and v.__closure__ is None and deeply_immutable(v.__defaults__)
                and (v.__kwdefaults__ is None or deeply_immutable(tuple(v.__kwdefaults__.values()))))
    if t is ModuleType:
        return v.__name__ in PURE_MODULES
    if t in _BUILTIN_TYPES or deeply_immutable(v):
        return True
    if isinstance(v, type) and (not v.__flags__ & (1 << 8) or getattr(v, "__module__", None) in PURE_MODULES):
        return True
    return False
