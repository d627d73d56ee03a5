"""How one case runs on a fresh import of the candidate, and where the
candidate and the test file live.

Owns the suite's configuration of the candidate (configure): its module
name (MODULE) and file (CAND_FILE), the package it lives in (PACKAGE,
IMPORT_ROOT, LIB_PREFIX), the targets repaired together (MULTI), the test
file (TEST_MODULE, TEST_FILE, TEST_CODE, its asserts ASSERTS), the files
whose lines a detail names (FILES) and the pytest the test file imports
(PYTEST: the stand-in, or the real one, use_pytest). Ctx runs a case of
each kind; exc_detail says what a case raised.
"""
import gc
import marshal
import os
import sys
from bisect import bisect_left
from time import monotonic

from . import verify
from .guard import Flags
from .observe import I64_MAX, I64_MIN, NO_ARGS, RET_INT, encode_value, observe_output, observe_raise, observe_return
from .protocol import KINDS, MLE, PASSED, RTE, ST_FINISHED, ST_RAISED, ST_RETURNED, WRONG
from .purity import reusable_value
from .record import expose as expose_recorder, install as install_recorder, replay
from .standin import drive, make_pytest, missing_fixtures, test_calls

NoneType = type(None)
ModuleType = type(sys)
FunctionType = type(lambda: None)
CodeType = type(compile("", "", "exec"))
modules = sys.modules

# The harness's own copier of arguments (a case's arguments, as Go sent
# them, marshalled once and loaded afresh for every call): candidates
# cannot reach it.
marshal_loads = marshal.loads

BOUNDARY = b"# ---- repair: the next file starts below ----"  # program.FileBoundary

MODULE = ""  # the target's module name (dotted in a package)
CAND_FILE = ""  # the file the candidate's code says it comes from
PACKAGE = ""  # the target's package, when it lives in one (CandidateFinder)
IMPORT_ROOT = ""  # where the target's top package is (lib/ or below it)
LIB_PREFIX = ""  # lib/ (the helpers, or the package's project), with a final separator
MULTI = ()  # (module, file) of each target when several are repaired together
PACKAGES = frozenset()  # the targets that are a package's __init__.py
TEST_MODULE = ""  # the test file's module name ("": no test file)
TEST_FILE = ""
TEST_CODE = None
ASSERTS = {}  # the test file's assert lines per function (assert_lines)
FILES = frozenset()  # the candidate's and the test file's (details name their lines)
CAND_FILES = frozenset()  # the candidate's files: the target's, or each target's (MULTI)
PYTEST = None  # what the test file imports as pytest: the stand-in or pytest
PRIVATE = ""  # the private directory: the server's working directory
WORKDIR = ""  # the project's tree: where tests run (children chdir there); "": PRIVATE


def configure(cfg):
    """Sets the candidate's configuration from the suite cfg, registers the
    pytest stand-in for a test file, and puts lib/ (and the package's
    import root) first on sys.path. With a project's tree (cfg "tree",
    sandbox.Tree) the helpers, the test file and the targets' import roots
    are the tree's, at "root" (the tree's own path, or its copy in lib/)."""
    global MODULE, CAND_FILE, PACKAGE, IMPORT_ROOT, LIB_PREFIX, MULTI, PACKAGES
    global TEST_MODULE, TEST_FILE, TEST_CODE, ASSERTS, FILES, CAND_FILES, PYTEST, PRIVATE, WORKDIR
    MODULE = cfg["module"]
    cwd = PRIVATE = os.getcwd()
    lib = os.path.join(cwd, "lib")
    tree = cfg.get("tree")
    proj = cfg.get("project")
    join = os.path.join
    if tree:
        root = os.path.normpath(cfg["tree_root"])
        WORKDIR = os.path.normpath(join(root, tree.get("cwd") or ""))
        targets = [(t["module"], join(root, t["file"]), join(root, t.get("import_root") or ""), t.get("package"))
                   for t in tree["targets"]]
        roots = []
        for _, _, r, _ in targets:
            if r not in roots:
                roots.append(os.path.normpath(r))
        IMPORT_ROOT = roots[0]
        CAND_FILE = targets[0][1]
        PACKAGES = frozenset(m for m, _, _, pkg in targets if pkg)
        PACKAGE = MODULE if MODULE in PACKAGES else MODULE.rpartition(".")[0]
        MULTI = tuple((m, f) for m, f, _, _ in targets)
        test_file = join(root, tree["test_file"])
        lib = root
    else:
        WORKDIR = ""
        PACKAGES = frozenset((MODULE,)) if proj and proj.get("package") else frozenset()
        PACKAGE = MODULE if PACKAGES else MODULE.rpartition(".")[0] if proj else ""
        IMPORT_ROOT = lib
        if proj and proj.get("import_root"):
            IMPORT_ROOT = join(lib, proj["import_root"])
        CAND_FILE = join(IMPORT_ROOT, *MODULE.split(".")) + ".py"
        if proj and proj.get("file"):
            CAND_FILE = join(lib, proj["file"])
        MULTI = tuple(
            (m["name"], join(IMPORT_ROOT, *m["name"].split(".")) + ".py") for m in cfg.get("modules") or ()
        )
        test_file = join(lib, cfg.get("test_file") or (cfg.get("test_module") or "") + ".py")
        roots = [lib]
    LIB_PREFIX = lib + os.sep
    if len(MULTI) < 2:
        MULTI = ()
    files = {CAND_FILE} | {f for _, f in MULTI}
    CAND_FILES = frozenset(files)
    TEST_MODULE = cfg.get("test_module") or ""
    TEST_CODE = None
    PYTEST = None
    if TEST_MODULE:
        TEST_FILE = test_file
        if not cfg.get("doctest"):
            files.add(TEST_FILE)  # a generated file's lines mean nothing
        TEST_CODE = compile(cfg.get("test_source") or "", TEST_FILE, "exec", dont_inherit=True)
        if not cfg.get("doctest"):
            ASSERTS = assert_lines(cfg.get("test_source") or "")
        PYTEST = make_pytest()
        modules["pytest"] = PYTEST
    else:
        TEST_FILE = ""
    FILES = frozenset(files)
    # The sandbox's private directory: helper modules in lib/ first, then
    # the standard library and site-packages (without running site.py).
    # In a project's tree: the targets' import roots, the test file's
    # directory (the built-in runner; pytest adds it itself) and the
    # directory tests run in, as python -m pytest has it.
    path = [p for p in sys.path if p and p != cwd]
    site = os.path.join(sys.prefix, "lib", "python%d.%d" % sys.version_info[:2], "site-packages")
    first = list(roots)
    if tree:
        for d in ([] if cfg.get("pytest") else [os.path.dirname(TEST_FILE)]) + [WORKDIR]:
            if d not in first:
                first.append(d)
    sys.path[:] = first + path + ([site] if os.path.isdir(site) else [])
    if PACKAGE or MULTI:
        # The target's package imports from its import root (a src/
        # layout), as an installed or editable package would; the target
        # itself is the candidate whoever imports it (CandidateFinder).
        if IMPORT_ROOT not in sys.path:
            sys.path.insert(0, IMPORT_ROOT)
        sys.meta_path.insert(0, CandidateFinder)


def shown(path):
    """path as the user knows it: relative to lib/ or the project's tree
    (the sandbox's own directories mean nothing to them)."""
    if LIB_PREFIX and path.startswith(LIB_PREFIX):
        return path[len(LIB_PREFIX):]
    return os.path.basename(path)


def use_pytest(module):
    """The test file imports module as pytest (the real one: real_pytest)."""
    global PYTEST
    PYTEST = module


# ---- cases --------------------------------------------------------------------------


# What the child needs of a case to run it: never what it expects (Go
# keeps that, see observe.py). A tuple: nothing a candidate does can
# change it for the next one. args is a tuple of scalars, or None (load
# args_m, the marshalled list); kwargs a tuple of (name, scalar) pairs, or
# None (load kwargs_m). A named tuple as collections.namedtuple makes one,
# without importing collections (a server loads only what it needs).
def _case_class():
    fields = "kind fn fn_head fn_rest args args_m kwargs kwargs_m want_args stdin timeout xfail skip then_m".split()
    try:
        from _collections import _tuplegetter as getter
    except ImportError:
        from operator import itemgetter

        def getter(i, doc):
            return property(itemgetter(i), doc=doc)

    ns = {"__slots__": (), "_fields": tuple(fields), "__new__": lambda cls, *values: tuple.__new__(cls, values)}
    for i, f in enumerate(fields):
        ns[f] = getter(i, f)
    return type("Case", (tuple,), ns)


Case = _case_class()


_SCALARS = (NoneType, bool, int, float, str)


def is_scalar_list(v):
    return all(type(x) in _SCALARS for x in v)


def load_case(c):
    fn = c.get("function") or ""
    parts = fn.split(".")
    args = c.get("args")
    if args is None:
        args = []
    scalar_args = is_scalar_list(args)
    kwargs = c.get("kwargs")
    if kwargs is None:
        kwargs = {}
    scalar_kwargs = is_scalar_list(kwargs.values())
    return Case(
        KINDS[c["kind"]], fn, parts[0], tuple(parts[1:]),
        tuple(args) if scalar_args else None, None if scalar_args else marshal.dumps(args),
        tuple(kwargs.items()) if scalar_kwargs else None, None if scalar_kwargs else marshal.dumps(kwargs),
        bool(c.get("want_args")), c.get("stdin"), float(c.get("timeout") or 2.0),
        bool(c.get("xfail")), bool(c.get("skip")), marshal.dumps(c["then"]) if c.get("then") is not None else None,
    )


# ---- details and progress ---------------------------------------------------------


def exc_detail(e, files):
    """'ValueError: bad input (line 7)': the exception's last line and the
    last line of one of files (the candidate, the test file) it went
    through."""
    t = type(e)
    name = getattr(t, "__qualname__", t.__name__)
    mod = getattr(t, "__module__", "builtins")
    if mod not in ("builtins", "__main__", MODULE):
        name = "%s.%s" % (mod, name)
    try:
        msg = str(e)
    except BaseException:
        msg = "<str() failed>"
    # One line: pytest's rewritten asserts explain themselves on the next.
    msg = msg.strip().split("\n", 1)[0].rstrip()
    s = name + (": " + msg if msg else "")
    if environ_key(e) is not None:
        s += " (os.environ: not set in the sandbox)"
    if len(s) > 300:
        s = s[:297] + "..."
    where = None
    tb = e.__traceback__
    while tb is not None:
        fn = tb.tb_frame.f_code.co_filename
        if fn in files:
            where = (fn, tb.tb_lineno)
        tb = tb.tb_next
    if where is not None:
        if where[0] == CAND_FILE:
            s += " (line %d)" % where[1]
        else:
            s += " (%s line %d)" % (os.path.basename(where[0]), where[1])
    return s


def environ_key(e):
    """The variable whose lookup in os.environ raised e (a KeyError from
    os.environ[...]: its innermost frame is os._Environ.__getitem__, a
    frozen module's since 3.11), or None."""
    try:
        if type(e) is not KeyError or len(e.args) != 1 or type(e.args[0]) is not str:
            return None
        tb = e.__traceback__
        last = None
        while tb is not None:
            last, tb = tb, tb.tb_next
        if last is None:
            return None
        f = last.tb_frame
        if f.f_code.co_name == "__getitem__" and f.f_globals.get("__name__") == "os":
            return e.args[0]
    except BaseException:
        pass
    return None


def assert_lines(source):
    """The lines of the asserts of each function of a test file with more
    than one, by the function's first line (its first decorator's, as its
    code object has it): assert statements and calls of methods named
    assert* (unittest's self.assertEqual)."""
    import ast

    try:
        tree = ast.parse(source)
    except BaseException:
        return {}
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = sorted({
                n.lineno for n in ast.walk(node)
                if isinstance(n, ast.Assert)
                or isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr.startswith("assert")
            })
            if len(lines) > 1:
                out[min([node.lineno] + [d.lineno for d in node.decorator_list])] = tuple(lines)
    return out


def test_progress(e):
    """How far the test function that raised e got, for partial credit:
    (its asserts before the line where it stopped, its asserts), or None.
    The test function is the outermost frame of the test file in e's
    traceback."""
    try:
        tb = e.__traceback__
        while tb is not None:
            co = tb.tb_frame.f_code
            if co.co_filename == TEST_FILE:
                lines = ASSERTS.get(co.co_firstlineno)
                if lines is None:
                    return None
                return bisect_left(lines, tb.tb_lineno), len(lines)
            tb = tb.tb_next
    except BaseException:
        pass
    return None


# ---- importing the candidate -------------------------------------------------------


def resolve(d, c):
    """The callee of case c (maybe dotted: "Stack.push") in module dict d."""
    try:
        obj = d[c.fn_head]
    except KeyError:
        raise LookupError("the candidate does not define %s" % c.fn_head) from None
    for part in c.fn_rest:
        obj = getattr(obj, part)
    return obj


def compile_joined(src):
    """The code of each target of a joined candidate (program.Join), and
    the line of the joined text each starts after."""
    lines = src.split(b"\n")
    parts, offsets, start = [], [], 0
    for i, line in enumerate(lines):
        if line.rstrip(b"\r") == BOUNDARY:
            parts.append(b"\n".join(lines[start:i]) + b"\n")
            offsets.append(start)
            start = i + 1
    parts.append(b"\n".join(lines[start:]))
    offsets.append(start)
    if len(parts) != len(MULTI):
        raise ValueError("the candidate has %d files, not %d" % (len(parts), len(MULTI)))
    codes = tuple(compile(p, f, "exec", dont_inherit=True) for p, (_, f) in zip(parts, MULTI))
    return codes, tuple(offsets)


class CandidateFinder:
    """Finds the target's module (PACKAGE mode): its code is the running
    candidate's, so the package's __init__ or a sibling that imports it
    gets the candidate, and its relative imports resolve."""

    codes = {}  # module name -> (code, file) of the running candidate

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        found = cls.codes.get(fullname)
        if found is None:
            return None
        from importlib.machinery import ModuleSpec

        spec = ModuleSpec(fullname, cls, origin=found[1], is_package=fullname in PACKAGES)
        if fullname in PACKAGES:
            # A package's __init__.py: its submodules are beside it.
            spec.submodule_search_locations.append(os.path.dirname(found[1]))
        spec.has_location = True
        return spec

    @classmethod
    def create_module(cls, spec):
        return None

    @classmethod
    def exec_module(cls, module):
        code, file = cls.codes[module.__name__]
        module.__file__ = file
        exec(code, module.__dict__)


class Ctx:
    """Runs one case of each kind on a fresh import of the candidate."""

    progress = None  # of the last failing test function (test_progress)
    record = False  # a test case records its calls into the target (record.py)

    def __init__(self, code):
        self.code = code

    def fresh(self, name):
        if PACKAGE or MULTI:
            return self.fresh_in_package(name)
        m = ModuleType(name)
        d = m.__dict__
        d["__file__"] = CAND_FILE
        modules[MODULE] = m
        if name == "__main__":
            modules["__main__"] = m
        exec(self.code, d)
        return d

    def fresh_in_package(self, name):
        """fresh for a target inside a package: imported by its dotted name
        after its parent packages, or run as __main__ with __package__ set
        (python -m)."""
        import importlib

        if MULTI:
            codes = dict(zip((m for m, _ in MULTI), zip(self.code[0], (f for _, f in MULTI))))
        else:
            codes = {MODULE: (self.code, CAND_FILE)}
        CandidateFinder.codes = codes
        for m in codes:
            modules.pop(m, None)
        if name != "__main__":
            return importlib.import_module(MODULE).__dict__
        if PACKAGE and PACKAGE != MODULE:
            importlib.import_module(PACKAGE)
        del codes[MODULE]  # run as __main__, not imported
        m = ModuleType("__main__")
        d = m.__dict__
        d["__file__"] = CAND_FILE
        d["__package__"] = PACKAGE or None
        modules["__main__"] = m
        exec(self.code[0][0] if MULTI else self.code, d)
        return d

    def reusable_module(self, copy=True):
        """A fresh module, its dict and a copy of it (None without copy) if
        the module can serve more than one case (see run_pure_calls), else
        (None, None, None). The body must run in under a millisecond on one
        of two tries: once, a child the machine preempted while it ran the
        body (on 2 cores, while other servers start) took a large module's
        0.2 ms for more, and every case of a coverage run imported the
        module afresh (20 ms for 5,000 lines)."""
        for _ in range(2):
            t = monotonic()
            try:
                d = self.fresh(MODULE)
            except BaseException:
                return None, None, None
            if monotonic() - t <= 0.001:
                break
        else:
            return None, None, None
        for k, v in d.items():
            if type(v) is FunctionType and v.__globals__ is d and v.__closure__ is None and v.__defaults__ is None \
                    and v.__kwdefaults__ is None:
                continue  # reusable_value's commonest case, inline
            if not reusable_value(k, v, d):
                return None, None, None
        return modules[MODULE], d, dict(d) if copy else None

    def run_call_in(self, c, d):
        """run_call on module dict d, already executed: (status, payload,
        detail) of the case's record."""
        try:
            if c.fn_rest:
                try:
                    f = resolve(d, c)
                except LookupError as e:
                    return RTE, b"", str(e)
            else:
                f = d.get(c.fn_head, d)
                if f is d:
                    return RTE, b"", "the candidate does not define %s" % c.fn_head
            args = c.args
            if args is None:
                args = marshal_loads(c.args_m)
            kwargs = c.kwargs
            if kwargs:
                r = f(*args, **dict(kwargs))
            elif kwargs is None:
                r = f(*args, **marshal_loads(c.kwargs_m))
            else:
                r = f(*args)
            if c.then_m is not None:
                # An object's life as a test lived it (record.py): the
                # value is what each of its methods returned.
                r = replay(r, marshal_loads(c.then_m))
            if c.want_args:
                return ST_RETURNED, observe_return(r, args), None
            if type(r) is int and I64_MIN <= r <= I64_MAX:
                return ST_RETURNED, RET_INT.pack(b"i", r, 0), None
            # Encoding may run the candidate's code (a returned generator,
            # a __repr__): what it raises is the case's exception.
            return ST_RETURNED, encode_value(r) + NO_ARGS, None
        except BaseException as e:
            return self.raised(e)

    def run_call(self, c):
        """Calls the case's function on a fresh import of the candidate."""
        try:
            d = self.fresh(MODULE)
        except BaseException as e:
            return self.raised(e)
        return self.run_call_in(c, d)

    def run_io(self, c, out):
        try:
            try:
                self.fresh("__main__")
            except SystemExit as e:
                if e.code not in (None, 0):
                    return self.raised(e)
            return ST_FINISHED, observe_output(out), None
        except BaseException as e:
            return self.raised(e)

    def run_test(self, c):
        """A test function's verdict: decided here, in the candidate's
        process, by the test file's own asserts (see sandbox/doc.go)."""
        try:
            d = self.fresh(MODULE)
            if self.record:
                install_recorder(d, CAND_FILES)
            elif verify.ON:
                install_recorder(d, CAND_FILES, verify.check_result)
            tm = ModuleType(TEST_MODULE)
            td = tm.__dict__
            td["__file__"] = TEST_FILE
            modules[TEST_MODULE] = tm
            exec(TEST_CODE, td)
            if self.record or verify.ON:
                expose_recorder(td)
            verify.took_test_module(tm)
            fn = td.get(c.fn)
            if fn is None or not callable(fn):
                return RTE, b"", "the test file does not define %s" % c.fn
            calls = test_calls(fn, PYTEST)
            if calls is None:
                return PASSED, b"", None
            missing = missing_fixtures(fn, calls)
            if missing:
                return RTE, b"", "fixture %s: the built-in runner has no fixtures; install pytest (apt-get install python3-pytest)" % missing
            for kw in calls:
                r = fn(**kw)
                if hasattr(r, "send") and hasattr(r, "throw") and hasattr(r, "__await__"):
                    drive(r)
            return PASSED, b"", None
        except BaseException as e:
            try:
                self.progress = test_progress(e)
                if PYTEST is not None and isinstance(e, PYTEST.Skipped):
                    # A case that does not run fails: a skip must not let a
                    # candidate pass what it cannot do.
                    msg = exc_detail(e, FILES).partition(": ")[2]
                    return WRONG, b"", "skipped" + (": " + msg if msg else "")
                if isinstance(e, AssertionError):
                    d = exc_detail(e, FILES)
                    e.__traceback__ = None
                    return WRONG, b"", d
                if isinstance(e, MemoryError):
                    Flags.memory = True
                    e.__traceback__ = None
                    return MLE, b"", "MemoryError"
                d = exc_detail(e, FILES)
                e.__traceback__ = None
                return RTE, b"", d
            except MemoryError:
                Flags.memory = True
                return MLE, b"", "MemoryError"

    def raised(self, e):
        """The record of a case that raised e: its class names and its
        line; Go decides whether the case expected it."""
        try:
            if isinstance(e, MemoryError):
                Flags.memory = True
                d = "MemoryError"
            else:
                d = exc_detail(e, FILES)
            payload = observe_raise(e)
            e.__traceback__ = None
            return ST_RAISED, payload, d
        except MemoryError:
            Flags.memory = True
            return MLE, b"", "MemoryError"


class LenientCtx(Ctx):
    """Ctx for lenient mode: the candidate's module gets the runtime's
    builtins (missing names and modules are injected)."""

    def __init__(self, code, lx):
        Ctx.__init__(self, code)
        self.case_builtins = lx.case_builtins

    def fresh(self, name):
        m = ModuleType(name)
        d = m.__dict__
        d["__file__"] = CAND_FILE
        d["__builtins__"] = self.case_builtins()
        modules[MODULE] = m
        if name == "__main__":
            modules["__main__"] = m
        exec(self.code, d)
        return d


KEPT = [None]  # the original's import a child keeps (kept_original); False: it cannot keep one


def kept_original(base):
    """The original's import (base: its code) a child keeps for the
    candidates it serves: (module, dict, a copy of the dict, its
    functions by the index of their code among the original's
    constants), made at the first ask (reusable_module's conditions), or
    None. A candidate that changes only the code of functions
    (partial.swap_in), in a module whose body calls nothing
    (partial.SWAP_OK), imports as the original but for their __code__:
    its cases run on this import with the functions' code swapped, not on
    a fresh one (on a large module the import and its check cost more
    than the cases). The objects made here are left out of the
    collections after each candidate (gc.freeze)."""
    k = KEPT[0]
    if k is None:
        m, d, snap = Ctx(base).reusable_module(True)
        if d is None:
            KEPT[0] = False
            return None
        functions = {}
        for i, c in enumerate(base.co_consts):
            if type(c) is CodeType:
                f = d.get(c.co_name)
                if type(f) is FunctionType and f.__code__ is c:
                    functions[i] = f
        k = KEPT[0] = (m, d, snap, functions)
        gc.collect()
        gc.freeze()
    return k or None
