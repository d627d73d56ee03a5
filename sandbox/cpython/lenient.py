# The lenient-mode runtime of the repair cpython engine (docs/lenient.md):
# LExecutor-style value injection (Souza & Pradel, "LExecutor:
# Learning-Guided Execution", ESEC/FSE 2023) for candidates whose code
# misses part of its context. It is embedded in the binary beside the
# harness (harness/) and used only for runs that ask for it: the manager
# calls instrument() on each such candidate, and a child that runs one
# executes this file once and calls setup(), then case_builtins() at the
# start of every case (from LenientCtx.fresh) and take() after it.
#
# What is missing gets a value of the class the plan (made in Go by a
# lenient.Predictor from the original program) names for it:
#
#   name       a name read that neither the module nor the builtins hold:
#              the candidate's module runs with a copy of the builtins
#              whose __missing__ injects (only a lookup that would raise
#              NameError reaches it: locals, globals and builtins that exist
#              are found first, and UnboundLocalError never gets here)
#   import     an import of a module that does not exist (or a relative
#              import without a package): the module is a DummyModule
#   attribute  an attribute read that would raise AttributeError on a
#              module, or on a class of the candidate or an instance of
#              one (instrument() turns every attribute read into a call of
#              __repair_lenient_attr__), or any attribute of an injected
#              value
#   call       calling an injected value
#
# Values are concretized as LExecutor's restore_value does; the same
# (kind, name) gives the same object for the rest of the case. Every
# injection is recorded (line, kind, name, class) and sent back with the
# case's result.
#
# It must run on CPython 3.8 and later and never raise out of a hook for a
# reason of its own.
import sys

ATTR_FN = "__repair_lenient_attr__"
MAX_RECORDS = 32  # per case; the harness reserves room for them
NAME_MAX = 100  # bytes of a recorded name, UTF-8

_builtins = None  # the real builtins module's dict
_real_import = None
_plan = {}  # "kind:name" -> class
_default = "object"
_cand = ""  # the candidate's file name
_module = ""  # and its module name (it is "__main__" in I/O cases)
_cache = {}  # "kind:name" -> injected value, for the running case
_records = []
_seen = set()
_dummies = []  # the DummyModules registered in sys.modules during the case
_ModuleType = type(sys)
_FunctionType = type(lambda: None)


def setup(plan_json, cand_file, module):
    """Called once in a child, before its first case."""
    global _builtins, _real_import, _plan, _default, _cand, _module
    import builtins
    import json

    _builtins = builtins.__dict__
    _real_import = builtins.__import__
    plan = json.loads(plan_json)
    _plan = dict(plan.get("classes") or {})
    _default = plan.get("default") or "object"
    _cand = cand_file
    _module = module


# ---- values ------------------------------------------------------------------


class Dummy(object):
    """LExecutor's dummy (its DummyCallable): the value of the classes
    "object" and "callable". Any attribute of it is injected, and calling
    it returns an injected value (kind "call", the name it was injected
    under). Attributes can be set on it like on any object."""

    __slots__ = ("_lx_name", "__dict__")

    def __init__(self, name):
        object.__setattr__(self, "_lx_name", name)

    def __getattr__(self, attr):
        if attr[:2] == "__" or attr[:4] == "_lx_":
            raise AttributeError(attr)
        return inject("attribute", attr)

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and not kwargs and _defined_here(args[0]):
            # A decorator (or a wrapper) applied to the candidate's own
            # function or class: give it back, as LExecutor's evaluation
            # does by removing decorators.
            f = args[0]
            line = f.__code__.co_firstlineno if type(f) is _FunctionType else None
            record("decorator", object.__getattribute__(self, "_lx_name"), "identity", line)
            return f
        return inject("call", object.__getattribute__(self, "_lx_name"))

    def __repr__(self):
        return "<injected %s>" % object.__getattribute__(self, "_lx_name")

    def __instancecheck__(self, obj):
        return False  # isinstance(x, Model) with Model injected: nothing is one

    def __subclasscheck__(self, cls):
        return False

    def __mro_entries__(self, bases):
        # A base class that is missing (class C(Model): with Model
        # injected): C derives from object, and what it misses of Model
        # is injected as missing attributes of C.
        return (object,)


class Resource(Dummy):
    """The value of the class "resource": a context manager. Unlike
    LExecutor's, its __exit__ does not swallow exceptions."""

    __slots__ = ()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        return False


class DummyModule(_ModuleType):
    """A module that could not be imported: any attribute of it is
    injected (a submodule named in an import is another DummyModule)."""

    def __getattr__(self, attr):
        if attr[:2] == "__":
            raise AttributeError(attr)
        full = self.__name__ + "." + attr
        sub = sys.modules.get(full)
        if isinstance(sub, DummyModule):
            return sub
        return inject("attribute", attr, self.__name__ + "." + attr)


class ModuleProxy(_ModuleType):
    """A module that exists, for a `from M import a, b` naming something M
    lacks: the names it has come from it, the others are injected."""

    def __init__(self, real):
        _ModuleType.__init__(self, real.__name__)
        self.__dict__["_lx_real"] = real

    def __getattr__(self, attr):
        real = self.__dict__["_lx_real"]
        try:
            return getattr(real, attr)
        except AttributeError:
            pass
        if attr[:2] == "__":
            raise AttributeError(attr)
        return inject("attribute", attr, real.__name__ + "." + attr)


def concretize(cls, name):
    """The value of a class (LExecutor's restore_value; the element of a
    non-empty container is a Dummy rather than a bare object())."""
    if cls == "None":
        return None
    if cls == "True":
        return True
    if cls == "False":
        return False
    if cls == "str_empty":
        return ""
    if cls == "str_nonempty":
        return "a"
    if cls == "int_neg":
        return -1
    if cls == "int_zero":
        return 0
    if cls == "int_pos":
        return 1
    if cls == "float_neg":
        return -1.0
    if cls == "float_zero":
        return 0.0
    if cls == "float_pos":
        return 1.0
    if cls == "list_empty":
        return []
    if cls == "list_nonempty":
        return [Dummy(name + "[0]")]
    if cls == "tuple_empty":
        return ()
    if cls == "tuple_nonempty":
        return (Dummy(name + "[0]"),)
    if cls == "set_empty":
        return set()
    if cls == "set_nonempty":
        return {Dummy(name + "[0]")}
    if cls == "dict_empty":
        return {}
    if cls == "dict_nonempty":
        return {"a": Dummy(name + "['a']")}
    if cls == "resource":
        return Resource(name)
    return Dummy(name)  # "callable", "object"


# ---- injection and records ---------------------------------------------------------


def inject(kind, name, shown=None):
    """The value for a missing (kind, name): the plan's class, concretized
    once per case."""
    key = ("call:" if kind == "call" else "attr:" if kind == "attribute" else "name:") + name
    if key in _cache:
        v, cls = _cache[key]
    else:
        cls = _plan.get(key, _default)
        v = concretize(cls, name)
        _cache[key] = (v, cls)
    record(kind, shown or name, cls)
    return v


def record(kind, name, cls, line=None):
    """Records an injection at the candidate's line that needed it (the
    innermost frame of the candidate), once per line, kind and name."""
    if len(_records) >= MAX_RECORDS:
        return
    if line is None:
        line = 0
        f = sys._getframe(1)
        while f is not None:
            if f.f_code.co_filename == _cand:
                line = f.f_lineno or 0
                break
            f = f.f_back
        del f
    k = (line, kind, name)
    if k in _seen:
        return
    _seen.add(k)
    b = name.encode("utf-8", "replace")
    if len(b) > NAME_MAX:
        name = b[:NAME_MAX].decode("utf-8", "ignore")
    _records.append((line, kind, name, cls))


def take():
    """The injections of the case that just ran, and a clean slate."""
    global _records
    r = _records
    _records = []
    _seen.clear()
    _cache.clear()
    mods = sys.modules
    for m in _dummies:
        if mods.get(m.__name__) is m:
            del mods[m.__name__]
    del _dummies[:]
    return r


def _defined_here(x):
    """Whether x is a function or class of the candidate."""
    if type(x) is _FunctionType:
        return x.__code__.co_filename == _cand
    return isinstance(x, type) and _ours(x)


def _ours(cls):
    return getattr(cls, "__module__", None) in (_module, "__main__")


# ---- hooks ---------------------------------------------------------------------------


class Builtins(dict):
    """The builtins of the candidate's module: a name that neither its
    globals nor the builtins hold is injected."""

    __slots__ = ()

    def __missing__(self, name):
        if name[:2] == "__" and name[-2:] == "__":
            raise KeyError(name)
        return inject("name", name)


def lenient_import(name, globals=None, locals=None, fromlist=(), level=0):
    try:
        m = _real_import(name, globals, locals, fromlist, level)
    except ImportError as e:
        if level > 0:
            missing = True  # the candidate runs as a top-level module
        else:
            n = getattr(e, "name", None)
            missing = isinstance(e, ModuleNotFoundError) and bool(n) and (name == n or name.startswith(n + "."))
        if not missing:
            raise
        e.__traceback__ = None
        shown = "." * level + name
        if level > 0:
            m = top = DummyModule(shown)
        else:
            # The missing module, its missing parents and submodules are
            # dummies (registered for the case, so that `import a.b` and
            # `from a.b import c` agree); parents that exist stay real.
            mods = sys.modules
            top = None
            path = ""
            for p in shown.split("."):
                path = p if not path else path + "." + p
                m = mods.get(path)
                if m is None:
                    m = DummyModule(path)
                    mods[path] = m
                    _dummies.append(m)
                if top is None:
                    top = m
        record("import", shown, "module")
        return m if fromlist else top
    if fromlist and type(m) is _ModuleType:
        for a in fromlist:
            if a != "*" and not hasattr(m, a):
                if getattr(m, "__path__", None) is not None:
                    try:
                        _real_import(m.__name__ + "." + a)
                        continue
                    except ImportError:
                        pass
                return ModuleProxy(m)
    return m


def lenient_attr(obj, name):
    """obj.name, or an injected value when obj (a module, or a class of the
    candidate or an instance of one) lacks it."""
    try:
        return getattr(obj, name)
    except AttributeError as e:
        tb = e.__traceback__
        if tb is not None and tb.tb_next is not None:
            raise  # raised by the object's own code (a property, __getattr__)
        t = type(obj)
        if t is _ModuleType:
            mod = getattr(obj, "__name__", "?")
            sub = sys.modules.get(mod + "." + name)
            if isinstance(sub, DummyModule):
                return sub  # `import a.b` of a missing b under a real a
            e.__traceback__ = None
            return inject("attribute", name, mod + "." + name)
        if not (_ours(obj) if isinstance(obj, type) else _ours(t)):
            # Built-in values (None, int, str, list...) and the standard
            # library's objects miss nothing: a real error.
            raise
        e.__traceback__ = None
        return inject("attribute", name)


def case_builtins():
    """A fresh builtins dict for the candidate's module in a new case."""
    take()
    b = Builtins(_builtins)
    b["__import__"] = lenient_import
    b[ATTR_FN] = lenient_attr
    return b


# ---- instrumentation (in the manager) ------------------------------------------------


def instrument(src, filename):
    """The candidate compiled with every attribute read (obj.name in a load
    context, outside annotations and match patterns, not a private
    __name) turned into __repair_lenient_attr__(obj, "name") at the same
    position: line numbers, and so coverage and details, stay the
    candidate's."""
    import ast

    tree = ast.parse(src, filename)

    class Rewriter(ast.NodeTransformer):
        def visit_Attribute(self, node):
            self.generic_visit(node)
            a = node.attr
            if not isinstance(node.ctx, ast.Load) or (a[:2] == "__" and a[-2:] != "__"):
                return node
            call = ast.Call(
                func=ast.Name(id=ATTR_FN, ctx=ast.Load()),
                args=[node.value, ast.Constant(value=a)],
                keywords=[],
            )
            return ast.copy_location(call, node)

        def visit_arg(self, node):
            return node  # annotations

        def visit_AnnAssign(self, node):
            node.target = self.visit(node.target)
            if node.value is not None:
                node.value = self.visit(node.value)
            return node

        def _function(self, node):
            node.args = self.visit(node.args)
            node.body = [self.visit(s) for s in node.body]
            node.decorator_list = [self.visit(d) for d in node.decorator_list]
            return node  # node.returns is an annotation

        visit_FunctionDef = visit_AsyncFunctionDef = _function

        def visit_match_case(self, node):
            # Patterns must stay attribute lookups.
            if node.guard is not None:
                node.guard = self.visit(node.guard)
            node.body = [self.visit(s) for s in node.body]
            return node

    tree = Rewriter().visit(tree)
    ast.fix_missing_locations(tree)
    return compile(tree, filename, "exec", dont_inherit=True)
