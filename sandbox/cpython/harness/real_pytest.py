"""Test files under the real pytest.

Owns the pytest mode: PYTEST_MODE (test cases run under the real pytest),
its configuration and session made once in the server (PREPARED,
PREPARED_SESSION) and COLLECT (the server only lists what pytest
collects); start loads pytest. PytestCtx runs one test case as an item of
a pytest session of the child; collect_items lists the items for Go.
"""
import os
import sys

from . import candidate, partial
from .candidate import Ctx, LenientCtx, compile_joined, exc_detail, test_progress
from .guard import Flags
from .observe import Output
from .protocol import DETAIL_MAX, MLE, PASSED, RTE, WRONG
from .purity import PURE_MODULES, deeply_immutable, deny_for, imported_names, pure_code

modules = sys.modules

PYTEST_MODE = False  # test cases run under the real pytest (PytestCtx)
PREPARED = None  # pytest's configuration, made once in the server
PREPARED_SESSION = None  # a session of it, started in the server
COLLECT = False  # the server only lists what pytest collects, then exits
COLLECTED = None  # nodeid -> item: the original's items, collected once in the server (collect_once)
IMPORT_TIME = frozenset()  # ids of the target's code objects that ran while the server imported and collected
LIVE = {}  # id of a code object of the target -> the functions that run it (collect_once)
EXCINFO = {}  # what the recorder collect_once registers saw: when -> exception
CONFTESTS = False  # collect_once loaded conftest files into PREPARED, with the original
ISOLATED = False  # no test can leave anything for the next (isolated): test selection may apply


def start(pt):
    """Loads the real pytest (the "pytest" of the suite: pt) for the test
    file: from where the interpreter has it (Go found it with site.py,
    which -S skipped here), without plugins that setuptools entry points
    would load; configured once here unless pt asks for a configuration
    per child."""
    global PYTEST_MODE, PREPARED, PREPARED_SESSION, COLLECT
    for d in pt.get("paths") or ():
        if d not in sys.path:
            sys.path.append(d)
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    modules.pop("pytest", None)  # the stand-in
    import pytest
    import _pytest.config
    import _pytest.main
    import _pytest.runner

    for name in _pytest.config.default_plugins:
        try:
            __import__("_pytest." + name)
        except ImportError:
            pass
    candidate.use_pytest(pytest)
    PYTEST_MODE = True
    speed_up_pytest()
    if not pt.get("per_child"):
        PREPARED = prepare_pytest()
        if PREPARED is not None:
            PREPARED_SESSION = prepare_session(PREPARED)
    COLLECT = bool(pt.get("collect"))


class PytestCtx(Ctx):
    """Runs test cases with the real pytest (PYTEST_MODE): the candidate is
    installed as its module, then one pytest session of this child collects
    the test file (and its conftest.py) and runs the cases' items one at a
    time, as `pytest` would in one process. Verdicts are pytest's: a
    failed assert is WRONG, any other error (in the test, a fixture or the
    collection) RUNTIME_ERROR; a test the candidate makes skip fails too,
    while a skip or skipif mark, an xfail that fails and a non-strict
    xpass count as pytest counts them."""

    def __init__(self, code, repl=None):
        Ctx.__init__(self, code)
        self.repl = repl  # the original's constants code replaces (partial.py), or None
        self.items = None  # nodeid -> item, once collected
        self.error = None  # why the session could not start or collect
        self.excinfo = {}
        self.import_cov = None

    def session(self, cov):
        if COLLECTED is not None:
            if cov is None and self.repl is not None and swap(self.repl):
                # The server's items, the original's functions running the
                # candidate's code: what importing and collecting the
                # candidate would give (collect_once).
                self.items, self.excinfo = COLLECTED, EXCINFO
                return
            forget_collection()
        try:
            if cov is not None:
                sys.settrace(cov[0])
            try:
                self.fresh(candidate.MODULE)
            finally:
                if cov is not None:
                    sys.settrace(None)
                    self.import_cov = bytes(cov[1])
        except BaseException as e:
            self.error = (RTE, exc_detail(e, candidate.FILES))
            e.__traceback__ = None
            return
        try:
            self.items, errors = pytest_collect(self)
            if errors:
                self.error = (RTE, errors)
        except BaseException as e:
            self.items = {}
            self.error = (RTE, "pytest: " + exc_detail(e, candidate.FILES))

    def run_test(self, c, cov=None):
        if self.items is None:
            self.session(cov)
        if cov is not None and self.import_cov is not None:
            cov[1][:] = self.import_cov
        item = (self.items or {}).get(c.fn)
        if item is None:
            if self.error is not None:
                return self.error[0], b"", self.error[1]
            return RTE, b"", "pytest did not collect %s" % c.fn
        if cov is None and plain(item):
            return self.run_plain(item)
        from _pytest.runner import runtestprotocol

        self.excinfo.clear()
        if cov is not None:
            sys.settrace(cov[0])
        try:
            reports = runtestprotocol(item, log=False, nextitem=None)
        finally:
            if cov is not None:
                sys.settrace(None)
        e = self.excinfo.get("call")
        if e is not None:
            self.progress = test_progress(e)
        return pytest_verdict(item, reports, self.excinfo)


    def run_plain(self, item):
        """A plain test function's verdict, called directly: what
        runtestprotocol and pytest_verdict give it (see plain)."""
        try:
            params = item.callspec.params if hasattr(item, "callspec") else {}
            item.obj(**params)
            return PASSED, b"", None
        except BaseException as e:
            pt = candidate.PYTEST
            if isinstance(e, (pt.exit.Exception, KeyboardInterrupt)):
                raise
            self.progress = test_progress(e)
            if isinstance(e, pt.xfail.Exception):
                return PASSED, b"", None  # xfailed: pytest passes it
            if isinstance(e, pt.skip.Exception):
                d = str(getattr(e, "msg", "") or "")
                e.__traceback__ = None
                return WRONG, b"", "skipped" + (": " + d if d else "")
            if isinstance(e, MemoryError):
                Flags.memory = True
                e.__traceback__ = None
                return MLE, b"", "MemoryError"
            d = exc_detail(e, candidate.FILES)
            e.__traceback__ = None
            if isinstance(e, (AssertionError, pt.fail.Exception)):
                return WRONG, b"", d
            return RTE, b"", d


_PLAIN = {}  # id of an item -> whether it is plain


def plain(item):
    """Whether an item is a plain test function, which runtestprotocol
    only calls: a module-level function (not a method, not a coroutine),
    whose only mark is parametrize and whose only arguments are its
    parameters (no fixture, no setup_module or setup_function, no
    usefixtures), collected by a configuration without plugins of its own
    (conftest files with hooks configure in each child: PREPARED is None
    then). pytest's plugins do nothing else for it here: -s captures
    nothing, -W ignore makes every warning quiet."""
    got = _PLAIN.get(id(item))
    if got is None:
        got = _PLAIN[id(item)] = _plain(item)
    return got


def _plain(item):
    try:
        import inspect

        from _pytest.python import Function, Module

        if PREPARED is None or type(item) is not Function or type(item.parent) is not Module:
            return False
        f = item.obj
        if inspect.iscoroutinefunction(f) or inspect.isasyncgenfunction(f) or inspect.isgeneratorfunction(f):
            return False
        if any(m.name != "parametrize" for m in item.iter_markers()):
            return False
        params = item.callspec.params if hasattr(item, "callspec") else {}
        return list(item.fixturenames) == list(params) and getattr(item, "_fixtureinfo", None) is not None \
            and not item._fixtureinfo.name2fixturedefs
    except BaseException:
        return False


def collect_items(original):
    """What pytest collects with the original program as the target: the
    node ids and their lines, and the collection error if any."""
    sys.stdout = Output()
    sys.stderr = Output()
    try:
        if candidate.MULTI:
            code = compile_joined(original.encode("utf-8", "surrogateescape"))
        else:
            code = compile(original, candidate.CAND_FILE, "exec", dont_inherit=True)
    except BaseException as e:
        return {"items": [], "error": "the target does not compile: %s" % exc_detail(e, candidate.FILES)}
    ctx = PytestCtx(code)
    ctx.session(None)
    items = []
    for nodeid, it in (ctx.items or {}).items():
        line = 0
        try:
            if it.location[1] is not None:
                line = it.location[1] + 1
        except BaseException:
            pass
        items.append({"id": nodeid, "line": line})
    return {"items": items, "error": ctx.error[1] if ctx.error else None}


def pytest_args():
    return [
        candidate.TEST_FILE, "--rootdir", candidate.LIB_PREFIX[:-1], "-s",
        "-q", "-p", "no:cacheprovider", "-p", "no:faulthandler",
        "-p", "no:stepwise", "-p", "no:pastebin", "-p", "no:junitxml",
        "--basetemp", os.path.join(os.getcwd(), ".pytest-tmp"),
        "-W", "ignore",
    ]


def prepare_pytest():
    """pytest's configuration, parsed and configured once in the server
    (half of what a session costs), or None where that is not safe: a
    conftest.py that defines hooks (options, configure) must load before
    the configuration, so each child then configures its own."""
    from _pytest.config import _prepareconfig

    try:
        for d, names in ((d, names) for d, _, names in os.walk("lib")):
            if "conftest.py" in names:
                with open(os.path.join(d, "conftest.py"), "rb") as f:
                    if b"def pytest_" in f.read():
                        return None
        config = _prepareconfig(pytest_args() + ["--noconftest"], [])
        if not hasattr(config.pluginmanager, "_try_load_conftest"):
            return None
        config._do_configure()
        return config
    except BaseException:
        return None


def prepare_session(config):
    """A session of config, started once in the server (the fixture
    manager reads every plugin's fixtures: a third of what a candidate
    cost), and the test file's assertions rewritten; None when that fails
    (each child then starts its own)."""
    from pathlib import Path

    from _pytest.main import Session

    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Output(), Output()
    try:
        import _pytest.assertion.rewrite as rw

        rw._rewrite_test(Path(candidate.TEST_FILE), config)
        session = Session.from_config(config)
        config.hook.pytest_sessionstart(session=session)
        return session
    except BaseException:
        return None
    finally:
        sys.stdout, sys.stderr = out, err


def speed_up_pytest():
    """Work every child of a pytest run would do alike, done once or not
    at all: the test file's assertion rewriting is remembered (pytest keeps
    it in __pycache__, which the sandbox cannot write, so every child did
    it again), and a failing test gets no long failure report (the verdict
    reads the exception itself; pytest's report with its source lines was
    half of a failing candidate's time)."""
    import _pytest.assertion.rewrite as rw
    import _pytest.python

    rewrite, memo = rw._rewrite_test, {}

    def rewrite_once(fn, config):
        try:
            st = os.stat(fn)
        except OSError:
            return rewrite(fn, config)
        key = (str(fn), st.st_mtime_ns, st.st_size, st.st_ino)
        got = memo.get(key)
        if got is None:
            got = memo[key] = rewrite(fn, config)
        return got

    def short_report(self, excinfo, style=None):
        try:
            return excinfo.exconly()[:DETAIL_MAX]
        except BaseException:
            return "failed"

    rw._rewrite_test = rewrite_once
    _pytest.python.Function._repr_failure_py = short_report


def pytest_collect(ctx, collector=None):
    """A configured session's items by node id, and the collection errors
    (one line) or None. collector, if not None, is the session of
    PREPARED that collects (collect_once)."""
    from _pytest.config import _prepareconfig
    from _pytest.main import Session

    class Recorder:
        def pytest_runtest_makereport(self, item, call):
            if call.excinfo is not None:
                ctx.excinfo[call.when] = call.excinfo.value

    config = PREPARED
    session = None
    if COLLECTED is not None and CONFTESTS:
        # The server's configuration holds the conftest files it loaded
        # with the original (collect_once): a configuration of our own,
        # as pytest's own inline runs make.
        config = None
    if config is not None:
        # Configured in the server; the conftest files, which may import
        # the target, load here, with the candidate in place.
        from pathlib import Path

        pm = config.pluginmanager
        pm._noconftest = False
        pm._try_load_conftest(Path(candidate.TEST_FILE), config.getoption("importmode"), config.rootpath)
        pm.register(Recorder())
        session = collector or PREPARED_SESSION
    else:
        config = _prepareconfig(pytest_args(), [Recorder()])
        config._do_configure()
    if session is None:
        session = Session.from_config(config)
        config.hook.pytest_sessionstart(session=session)
    errors = []

    class Failures:
        def pytest_collectreport(self, report):
            if report.failed:
                errors.append(report)

    config.pluginmanager.register(Failures())
    try:
        items = session.perform_collect()
    except BaseException:
        items = list(getattr(session, "items", None) or ())
    msg = None
    if errors:
        r = errors[0]
        text = str(getattr(r, "longrepr", "") or "")
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        last = ""
        for ln in lines:
            if ln.startswith("E "):
                last = ln[1:].strip()
        where = r.nodeid or os.path.basename(candidate.TEST_FILE)
        msg = "collecting %s: %s" % (where, last or (lines[-1] if lines else "error"))
    return {it.nodeid: it for it in items}, msg


def pytest_verdict(item, reports, excinfo):
    """The record of one item from its setup, call and teardown reports."""
    for r in reports:
        if r.passed:
            continue
        when = r.when
        if r.skipped:
            if hasattr(r, "wasxfail"):
                continue  # xfail that failed as expected: pytest passes it
            if when == "setup" and (item.get_closest_marker("skip") or item.get_closest_marker("skipif")):
                continue  # skipped by its marks, whatever the candidate
            reason = ""
            lr = r.longrepr
            if isinstance(lr, tuple) and len(lr) == 3:
                reason = str(lr[2])
                if reason.startswith("Skipped: "):
                    reason = reason[len("Skipped: "):]
            return WRONG, b"", "skipped" + (": " + reason if reason else "")
        e = excinfo.get(when)
        if e is None:
            # A strict xpass, or a failure pytest made up.
            text = str(r.longrepr or "failed").strip().splitlines()
            return WRONG, b"", (text[-1] if text else "failed")[:300]
        d = exc_detail(e, candidate.FILES)
        e.__traceback__ = None
        if when != "call":
            return RTE, b"", "error in %s: %s" % (when, d)
        if isinstance(e, MemoryError):
            Flags.memory = True
            return MLE, b"", "MemoryError"
        if isinstance(e, AssertionError) or isinstance(e, candidate.PYTEST.fail.Exception):
            return WRONG, b"", d
        return RTE, b"", d
    return PASSED, b"", None


class LenientPytestCtx(PytestCtx):
    """PytestCtx for lenient mode: the candidate as LenientCtx installs it."""

    def __init__(self, code, lx):
        PytestCtx.__init__(self, code)
        self.case_builtins = lx.case_builtins

    fresh = LenientCtx.fresh


def collect_once():
    """Imports the original and collects the test file once, in the
    server, so that a child runs a candidate whose edits lie inside
    definitions on these items after swap put its code in the original's
    functions: a child then costs a fork and the tests, not an import and
    a collection. Only for a configuration and session made in the server
    (PREPARED_SESSION), and when a trial in a child of its own shows
    that importing and collecting leave no thread or process behind and
    the process as it was (process_state).
    Records which of the target's code ran meanwhile (IMPORT_TIME: a
    candidate that changes it takes the full path) and where each code
    object of the target runs (LIVE)."""
    global CONFTESTS
    if PREPARED_SESSION is None or partial.BASE_CODE is None or candidate.MULTI or candidate.PACKAGE:
        return
    CONFTESTS = any("conftest.py" in names for _, _, names in os.walk("lib"))
    pid = os.fork()
    if pid == 0:
        try:
            before = process_state()
            ok = _collect_once() and clean_process() and process_state() == before
        except BaseException:
            ok = False
        os._exit(0 if ok else 1)
    try:
        _, status = os.waitpid(pid, 0)
    except OSError:
        return
    if status != 0 or not _collect_once():
        return


def process_state():
    """What of the process the forker's children inherit and the target's
    import or the collection must leave as they found it: the working
    directory and what it holds, signal handlers, open descriptors, the
    environment, the umask, the recursion limit, a tracer or profiler.
    (The forker empties the working directory between candidates: a
    collection that moved it elsewhere must never run there.)"""
    import signal

    handlers = []
    for s in range(1, signal.NSIG):
        try:
            handlers.append((s, signal.getsignal(s)))
        except (ValueError, OSError):
            pass
    mask = os.umask(0o22)
    os.umask(mask)
    return (os.getcwd(), sorted(os.listdir(".")), handlers, sorted(os.listdir("/proc/self/fd")), dict(os.environ),
            mask, sys.getrecursionlimit(), sys.gettrace(), sys.getprofile())


def clean_process():
    """Whether the process runs no other thread and has no child."""
    from _thread import _count

    if _count():
        return False
    try:
        with open("/proc/self/task/%d/children" % os.getpid()) as f:
            return not f.read().split()
    except OSError:
        return True


def _collect_once():
    """collect_once's work: True when the items are there."""
    global COLLECTED, IMPORT_TIME, LIVE
    cand = candidate.CAND_FILE
    ran = set()

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_filename == cand:
            ran.add(frame.f_code)

    from _pytest.main import Session

    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Output(), Output()
    ctx = PytestCtx(partial.BASE_CODE)
    ctx.excinfo = EXCINFO
    # A session of its own, so that PREPARED_SESSION stays as a child
    # that collects a candidate itself needs it: PREPARED_SESSION's
    # plugins make way for its while it starts and collects.
    pm = PREPARED.pluginmanager
    theirs = [(name, pm.get_plugin(name)) for name in ("session", "funcmanage")]
    for _, plugin in theirs:
        if plugin is not None:
            pm.unregister(plugin)
    sys.setprofile(profile)
    try:
        ctx.fresh(candidate.MODULE)
        collector = Session.from_config(PREPARED)
        PREPARED.hook.pytest_sessionstart(session=collector)
        ctx.items, errors = pytest_collect(ctx, collector)
        ctx.error = errors
    except BaseException:
        ctx.error = "failed"
    finally:
        sys.setprofile(None)
        sys.stdout, sys.stderr = out, err
        for name in ("session", "funcmanage"):
            plugin = pm.get_plugin(name)
            if plugin is not None:
                pm.unregister(plugin)
        for name, plugin in theirs:
            if plugin is not None:
                pm.register(plugin, name)
    if ctx.error is not None or not ctx.items:
        return False
    COLLECTED = ctx.items
    IMPORT_TIME = frozenset(id(co) for co in ran)
    ran.clear()
    LIVE = live_functions(modules.get(candidate.MODULE), cand)
    global ISOLATED
    ISOLATED = isolated()
    return True


def isolated():
    """Whether no test of the session can leave anything for the next one
    to read, so that a test that never reaches a candidate's edit gives
    what it gave with the original (test selection, docs/engines.md):
    every item's fixtures are set up and torn down around it (the runner
    runs each with nextitem=None); the target, the test file and every
    module of the project they load hold only immutable values,
    functions and classes whose attributes are such; their code is pure
    (purity.py), declares no global and stores attributes only on the
    self of a method (stores_only_self)."""
    import ast

    global SEL_IMPORTS, SEL_DENY
    try:
        if sys.version_info < (3, 10) or partial.BASE_CODE is None:
            return False
        # pytest loads most of the standard library, whose mutable
        # attributes' names all deny purity (purity.take_snapshots): only
        # those of the modules this code imports and reaches count here.
        SEL_IMPORTS = frozenset(n for n in imported_names(partial.BASE_CODE) | imported_names(candidate.TEST_CODE)
                                if n in PURE_MODULES)
        SEL_DENY = deny_for(SEL_IMPORTS)
        for code in (partial.BASE_CODE, candidate.TEST_CODE):
            if pure_code(code, ("pytest", candidate.MODULE), checked=True, deny=SEL_DENY, imports=SEL_IMPORTS)[0] == 0:
                return False
        if not stores_only_self(ast.parse(partial.BASE_SRC)) or not stores_only_self(ast.parse(TEST_SOURCE[0])):
            return False
        lib = candidate.LIB_PREFIX
        mods = [m for m in list(modules.values()) if isinstance(getattr(m, "__file__", None), str) and m.__file__.startswith(lib)]
        names = {id(m) for m in mods}
        return all(_immutable_module(m, names) for m in mods)
    except BaseException:
        return False


TEST_SOURCE = [""]  # the test file's source (collect_once)
SEL_IMPORTS = frozenset()  # the modules the original and the test file import (isolated)
SEL_DENY = frozenset()  # the names their code must not use (purity.deny_for)


def snippets_isolated(src, spans):
    """Whether a partial candidate's changed definitions (spans of src)
    keep to stores_only_self."""
    import ast

    try:
        return all(stores_only_self(ast.parse(src[cs:ce])) for cs, ce, _, _ in spans)
    except BaseException:
        return False


def _immutable_module(m, names):
    from _pytest.mark.structures import Mark, MarkDecorator

    FunctionType = type(isolated)
    seen = set()

    def ok(k, v):
        if k[:2] == "__" and k[-2:] == "__" and k not in ("__all__",):
            return True
        t = type(v)
        if deeply_immutable(v) or t is FunctionType or t in (type(len), type([].append)):
            return True
        if t is type(sys):
            # (pytest's assertion rewriting gives a test module builtins
            # and its own helpers: @py_builtins, @pytest_ar.)
            return (v.__name__ in PURE_MODULES or v.__name__ in ("pytest", "builtins") or v.__name__.startswith("_pytest.")
                    or id(v) in names)
        if isinstance(v, (Mark, MarkDecorator)):
            return True
        if isinstance(v, type):
            if id(v) in seen:
                return True
            seen.add(id(v))
            if v.__module__ in PURE_MODULES or v.__module__ in ("builtins", "pytest") or v.__module__.startswith("_pytest"):
                return True
            for ck, cv in vars(v).items():
                if isinstance(cv, (staticmethod, classmethod)):
                    cv = cv.__func__
                if isinstance(cv, property):
                    continue
                if ck in ("__dict__", "__weakref__") or not ok(ck, cv):
                    if ck not in ("__dict__", "__weakref__"):
                        return False
            return True
        return False

    return all(ok(k, v) for k, v in list(vars(m).items()))


def stores_only_self(tree):
    """Whether code (an ast) declares no global and stores or deletes
    attributes only of the first parameter of a method (a function right
    in a class body, neither a static nor a class method) that the method
    never assigns: an instance's own state, which ends with the test that
    made the instance."""
    import ast

    def check(node, method_self):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Global):
                return False
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                me = None
                if isinstance(node, ast.ClassDef) and not isinstance(child, ast.Lambda):
                    decos = {getattr(d, "id", getattr(d, "attr", None)) for d in child.decorator_list}
                    args = child.args.posonlyargs + child.args.args
                    if args and not decos & {"staticmethod", "classmethod"}:
                        me = args[0].arg
                        if any(isinstance(n, ast.Name) and n.id == me and not isinstance(n.ctx, ast.Load)
                               for n in ast.walk(child)):
                            me = None
                if not check(child, me):
                    return False
                continue
            if isinstance(child, ast.Attribute) and not isinstance(child.ctx, ast.Load):
                if not (method_self and isinstance(child.value, ast.Name) and child.value.id == method_self):
                    return False
            if not check(child, method_self):
                return False
        return True

    return check(tree, None)


def live_functions(module, cand):
    """The functions of module (a module of file cand): by the id of their
    code object, those that run it, through its globals, classes (their
    methods, static and class methods, properties) and wrappers
    (__wrapped__)."""
    FunctionType = type(live_functions)
    out, seen = {}, set()

    def add(v):
        for _ in range(8):
            if id(v) in seen:
                return
            seen.add(id(v))
            if type(v) is FunctionType:
                if v.__code__.co_filename == cand:
                    out.setdefault(id(v.__code__), []).append(v)
            elif isinstance(v, (staticmethod, classmethod)):
                v = v.__func__
                continue
            elif isinstance(v, property):
                for f in (v.fget, v.fset, v.fdel):
                    add(f)
                return
            elif isinstance(v, type):
                if getattr(v, "__module__", None) == candidate.MODULE:
                    for x in list(vars(v).values()):
                        add(x)
                return
            w = getattr(v, "__wrapped__", None) if type(v) is not FunctionType or v.__code__.co_filename != cand else None
            if w is None:
                return
            v = w

    if module is not None:
        for v in list(vars(module).values()):
            add(v)
    return out


_NEWLOCALS = 0x0002


def swappable(repl):
    """Whether swap would put a partial candidate's code in place."""
    plan = []
    base = partial.BASE_CODE.co_consts
    return all(_pair(base[i], new, plan) for i, new in repl)


def swap(repl):
    """Puts a partial candidate's code (repl: the original module code's
    constants it replaces, partial.py) into the original's functions, or
    changes nothing and returns False when that would not be what
    importing the candidate gives: a changed function ran at import or
    collection, its function is not found, its free variables differ, or
    a class body would run other code."""
    plan = []
    base = partial.BASE_CODE.co_consts
    for i, new in repl:
        if not _pair(base[i], new, plan):
            return False
    for f, code in plan:
        f.__code__ = code
    return True


def _pair(old, new, plan):
    if old.co_flags & _NEWLOCALS:
        if old.co_code == new.co_code and old.co_consts == new.co_consts and old.co_names == new.co_names \
                and old.co_varnames == new.co_varnames:
            return True  # the same code (but maybe for its lines)
        fs = LIVE.get(id(old))
        if not fs or id(old) in IMPORT_TIME or old.co_freevars != new.co_freevars:
            return False
        plan.extend((f, new) for f in fs)
        return True
    # A class body: it ran at import, so it must be the same code, but
    # for its functions.
    if (old.co_code, old.co_names, old.co_varnames, old.co_flags, old.co_cellvars, old.co_freevars) != (
            new.co_code, new.co_names, new.co_varnames, new.co_flags, new.co_cellvars, new.co_freevars) \
            or partial._consts_key(old) != partial._consts_key(new):
        return False
    CodeType = type(old)
    olds = [k for k in old.co_consts if type(k) is CodeType]
    news = [k for k in new.co_consts if type(k) is CodeType]
    if len(olds) != len(news):
        return False
    return all(_pair(o, n, plan) for o, n in zip(olds, news))


def forget_collection():
    """Before a child imports and collects a candidate itself: forgets the
    modules the server's collection imported (the target, the test file,
    the helpers in lib/), so that they are imported again."""
    lib = candidate.LIB_PREFIX
    for name in list(modules):
        m = modules.get(name)
        f = getattr(m, "__file__", None) if m is not None else None
        if name in (candidate.MODULE, candidate.TEST_MODULE) or isinstance(f, str) and f.startswith(lib):
            del modules[name]
