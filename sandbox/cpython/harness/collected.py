"""The original's pytest items, collected once in the server.

Owns collect_once and its state: the server imports the original and
collects the test file once (COLLECTED), so that a child runs a
candidate whose edits lie inside definitions on those items, its code
put into the original's functions (swap), instead of importing and
collecting it; and isolated, whether no test can leave anything for the
next, which test selection under pytest needs (docs/engines.md, "Partial
re-execution and test selection").
"""
import os
import sys

from . import candidate, partial, real_pytest, verify
from .observe import Output
from .alive import stage, start_heartbeat, stop_heartbeat
from .purity import COMPILE_TIME, PURE_MODULES, _opcodes, deeply_immutable, deny_for, imported_names, pure_code

modules = sys.modules

COLLECTED = None  # nodeid -> item: the original's items, collected once in the server (collect_once)
IMPORT_TIME = frozenset()  # ids of the target's code objects that ran while the server imported and collected
LIVE = {}  # id of a code object of the target -> the functions that run it (collect_once)
EXCINFO = {}  # what the recorder collect_once registers saw: when -> exception
CONFTESTS = False  # collect_once loaded conftest files into PREPARED, with the original
ISOLATED = False  # no test can leave anything for the next (isolated): test selection may apply
# name -> how many of the items collected once a plugin makes go through
# pytest's runner, plain as they are but for it (collect_once): a child
# that runs one serves no other candidate. Go names them on stderr.
PLUGINS_ACTING = {}


def collect_once():
    """Imports the original and collects the test file once, in the
    server, so that a child runs a candidate whose edits lie inside
    definitions on these items after swap put its code in the original's
    functions: a child then costs a fork and the tests, not an import and
    a collection. Only for a configuration and session made in the server
    (PREPARED_SESSION), and when a trial in a child of its own shows
    that importing and collecting leave no thread or process behind, the
    process as it was (process_state) and the code of every module loaded
    before as it was (verify.snapshot).
    Records which of the target's code ran meanwhile (IMPORT_TIME: a
    candidate that changes it takes the full path) and where each code
    object of the target runs (LIVE)."""
    global CONFTESTS
    if real_pytest.PREPARED_SESSION is None or partial.BASE_CODE is None or candidate.MULTI:
        return
    CONFTESTS = has_conftest(candidate.LIB_PREFIX[:-1])
    test_file = candidate.shown(candidate.TEST_FILE)
    stage("importing and collecting the test file %s (a trial, in a child)" % test_file)
    stop_heartbeat()  # (the child's own pings while it collects)
    pid = os.fork()
    if pid == 0:
        try:
            before = process_state()
            # The code of every module loaded (pytest's, the harness's, the
            # standard library's): an original that patches pytest at
            # import (a submission of a batch may) must not do it in the
            # server, whose children every candidate runs in.
            snap = verify.snapshot([m for m in list(modules.values()) if m is not None])
            start_heartbeat()
            try:
                got = _collect_once()
            finally:
                stop_heartbeat()  # (before clean_process counts the threads)
            ok = (got and clean_process() and process_state() == before
                  and verify.changed(snap, pytest_fixture) is None)
        except BaseException:
            ok = False
        os._exit(0 if ok else 1)
    try:
        _, status = os.waitpid(pid, 0)
    except OSError:
        return
    finally:
        start_heartbeat()
    if status != 0:
        return
    stage("importing and collecting the test file %s" % test_file)
    if not _collect_once():
        return
    # Whether each item is plain, once here rather than in every child.
    for item in COLLECTED.values():
        if not real_pytest.plain(item) and ISOLATED and real_pytest._plain(item):
            for name in real_pytest.plugins_acting(item):
                PLUGINS_ACTING[name] = PLUGINS_ACTING.get(name, 0) + 1


def pytest_fixture(v):
    """Whether v is a pytest fixture: what pytest's collection adds to the
    classes it collects (unittest.TestCase's setup fixtures, xunit-style
    setup_method ones), in every child's collection as in the server's."""
    return getattr(v, "_pytestfixturefunction", None) is not None or type(v).__name__ == "FixtureFunctionDefinition"


def has_conftest(top):
    """Whether a conftest.py lies under top (hidden directories, caches and
    installed packages left out, as the tree's copy leaves them)."""
    skip = ("__pycache__", "node_modules", "site-packages", "dist-packages")
    for d, dirs, names in os.walk(top):
        if "conftest.py" in names:
            return True
        dirs[:] = [x for x in dirs if x[:1] != "." and x not in skip and not os.path.exists(os.path.join(d, x, "pyvenv.cfg"))]
    return False


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
    ctx = real_pytest.PytestCtx(partial.BASE_CODE)
    ctx.excinfo = EXCINFO
    # A session of its own, so that PREPARED_SESSION stays as a child
    # that collects a candidate itself needs it: PREPARED_SESSION's
    # plugins make way for its while it starts and collects.
    pm = real_pytest.PREPARED.pluginmanager
    theirs = [(name, pm.get_plugin(name)) for name in ("session", "funcmanage")]
    for _, plugin in theirs:
        if plugin is not None:
            pm.unregister(plugin)
    sys.setprofile(profile)
    try:
        if candidate.WORKDIR:
            os.chdir(candidate.WORKDIR)  # where the children collect
        ctx.fresh(candidate.MODULE)
        collector = Session.from_config(real_pytest.PREPARED)
        real_pytest.PREPARED.hook.pytest_sessionstart(session=collector)
        ctx.items, errors = real_pytest.pytest_collect(ctx, collector)
        ctx.error = errors
    except BaseException:
        ctx.error = "failed"
    finally:
        sys.setprofile(None)
        sys.stdout, sys.stderr = out, err
        if candidate.WORKDIR:
            os.chdir(candidate.PRIVATE)
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
    self of a method (stores_only_self). When not, NOT_ISOLATED says why
    (Go says it on stderr)."""
    global NOT_ISOLATED
    why = _not_isolated()
    NOT_ISOLATED = why or ""
    return why is None


NOT_ISOLATED = ""  # why the session is not isolated, for the user, or "" (isolated)


def _not_isolated():
    """isolated's work: None, or why not."""
    import ast

    global SEL_IMPORTS, SEL_DENY
    try:
        if sys.version_info < (3, 10) or partial.BASE_CODE is None:
            return ""
        # pytest loads most of the standard library, whose mutable
        # attributes' names all deny purity (purity.take_snapshots): only
        # those of the modules this code imports and reaches count here.
        SEL_IMPORTS = frozenset(n for n in imported_names(partial.BASE_CODE) | imported_names(candidate.TEST_CODE)
                                if n in PURE_MODULES or n in COMPILE_TIME)
        SEL_DENY = deny_for(SEL_IMPORTS)
        own = ("pytest", candidate.MODULE)
        for code, name in ((partial.BASE_CODE, candidate.CAND_FILE), (candidate.TEST_CODE, candidate.TEST_FILE)):
            if pure_code(code, own, checked=True, deny=SEL_DENY, imports=SEL_IMPORTS)[0] == 0:
                name = os.path.basename(name)
                other = sorted(n for n in imported_names(code) if n not in PURE_MODULES and n not in COMPILE_TIME
                               and n not in own)
                if other:
                    return "%s imports %s" % (name, ", ".join(other[:3]))
                return "%s uses the process's or the interpreter's state" % name
        for src, name in ((partial.BASE_SRC, candidate.CAND_FILE), (TEST_SOURCE[0], candidate.TEST_FILE)):
            if not stores_only_self(ast.parse(src)):
                return "%s stores attributes of something other than a method's self, or declares a global" % (
                    os.path.basename(name))
        lib = candidate.LIB_PREFIX
        mods = [m for m in list(modules.values()) if isinstance(getattr(m, "__file__", None), str) and m.__file__.startswith(lib)]
        names = {id(m) for m in mods}
        for m in mods:
            key = _immutable_module(m, names)
            if key is not None:
                return "%s.%s is mutable state" % (m.__name__, key)
        return None
    except BaseException:
        return ""


TEST_SOURCE = [""]  # the test file's source (collect_once)
SEL_IMPORTS = frozenset()  # the modules the original and the test file import (isolated)
SEL_DENY = frozenset()  # the names their code must not use (purity.deny_for)


def snippets_isolated(src, spans, defs=()):
    """Whether a partial candidate's changed definitions (spans of src)
    keep to stores_only_self. A definition whose code compiled alone
    (defs, by span: Partial.defs) stores and deletes no attribute and no
    global name, in any code object of it, and whose text is ASCII and
    never spells global, does without its parse (78 us a candidate of
    pytest-2000's; stores_only_self refuses attribute stores and global
    declarations only, and there are none but in code the compiler drops:
    code that never runs)."""
    import ast

    try:
        for k, (cs, ce, _, _) in enumerate(spans):
            text = src[cs:ce]
            if k < len(defs) and text.isascii() and b"global" not in text and not stores_anything(defs[k]):
                continue
            if not stores_only_self(ast.parse(text)):
                return False
        return True
    except BaseException:
        return False


def stores_anything(code):
    """Whether code, or a code object in it, stores or deletes an
    attribute or a global name (its instructions, by their opcodes)."""
    _, _, store_ops, global_ops, _ = _opcodes()
    ops = store_ops | global_ops
    CodeType = type(code)
    stack = [code]
    while stack:
        co = stack.pop()
        b = co.co_code[::2]  # the opcodes (wordcode: opcode, argument)
        if any(op in b for op in ops):
            return True
        stack.extend(k for k in co.co_consts if type(k) is CodeType)
    return False


def _immutable_module(m, names):
    """The first name of module m whose value is not immutable as isolated
    needs it, or None."""
    from _pytest.mark.structures import Mark, MarkDecorator

    FunctionType = type(isolated)
    seen = set()

    def ok(k, v):
        t = type(v)
        if k[:2] == "__" and k[-2:] == "__" and k not in ("__all__",) and t is not FunctionType:
            return True
        if deeply_immutable(v):
            return True
        if t is FunctionType:
            # Its defaults and closure are state a call can change
            # (def f(x, seen=[]): seen.append(x)).
            # A method's closure holds its class (super()).
            return (deeply_immutable(v.__defaults__)
                    and (v.__kwdefaults__ is None or deeply_immutable(tuple(v.__kwdefaults__.values())))
                    and all(ok(k, c.cell_contents) for c in v.__closure__ or ()))
        if t in (type(len), type([].append)):
            # A builtin function, not a method bound to an object
            # (push = [].append).
            return type(getattr(v, "__self__", None)) in (type(None), type(sys))
        if t is type(sys):
            # (pytest's assertion rewriting gives a test module builtins
            # and its own helpers: @py_builtins, @pytest_ar.)
            return (v.__name__ in PURE_MODULES or v.__name__ in COMPILE_TIME or v.__name__ in ("pytest", "builtins") or v.__name__.startswith("_pytest.")
                    or id(v) in names)
        if isinstance(v, (Mark, MarkDecorator)) or getattr(t, "__module__", None) in COMPILE_TIME:
            # (A __future__ feature: what the compiler was told; code that
            # stored into it fails stores_only_self.)
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
                    if not all(f is None or ok(ck, f) for f in (cv.fget, cv.fset, cv.fdel)):
                        return False
                    continue
                if ck in ("__dict__", "__weakref__") or not ok(ck, cv):
                    if ck not in ("__dict__", "__weakref__"):
                        return False
            return True
        return False

    return next((k for k, v in list(vars(m).items()) if not ok(k, v)), None)


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
        SWAPPED.append((f, f.__code__))
        f.__code__ = code
    return True


SWAPPED = []  # (function, its original code) of every swap in this child, to put back (unswap)


def unswap():
    """Puts the original's code back into the functions swap changed: a
    child that serves the next candidate (reuse under pytest) runs it on
    the original's items again."""
    while SWAPPED:
        f, code = SWAPPED.pop()
        f.__code__ = code


def keeps_isolation(part, src, spans):
    """(level, mask) of pure_code when a partial candidate part (source
    src, changed definitions spans) keeps the session isolated: the suite
    is (ISOLATED), its new code is pure with the names and imports
    isolated allows, stores attributes only on a method's self, and runs
    on the items collected once (swappable). Else (0, 0). Test selection
    and the reuse of a child under pytest rest on it: no test of such a
    candidate can leave anything that another test, of this candidate or
    of the next one run in the same child, would read."""
    if not ISOLATED or part is None:
        return 0, 0
    r = partial.pure(part, True, SEL_DENY, SEL_IMPORTS)
    if r[0] == 0 or not swappable(part.repl) or not snippets_isolated(src, spans, part.defs):
        return 0, 0
    return r


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
        if name in (candidate.MODULE, candidate.TEST_MODULE) or isinstance(f, str) and f.startswith(lib) \
                and "-packages" + os.sep not in f:
            del modules[name]
