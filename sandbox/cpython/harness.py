# The fork server of the repair cpython engine (see sandbox/doc.go for the
# protocol and the invariants). It runs under the real interpreter, inside
# the sandbox shim, as:
#
#     python -s -S -B -c <this file> IN_FD OUT_FD
#
# It receives the suite once, then per candidate only its source. Three
# kinds of process share one anonymous shared mapping (SHM):
#
#   forker (the process the shim executed: PID 1 of the sandbox's PID
#           namespace) forks a child when the manager asks, reaps it, kills
#           and reaps whatever it left behind, and reports its exit status.
#           Its loop touches few pages, so forking it costs few
#           copy-on-write faults.
#   manager (forked once by the forker; never forks) talks to Go, compiles
#           each candidate and puts its marshalled code into SHM, enforces
#           the per-case deadlines from outside, and sends the records back.
#   child   (one per candidate, more if cases end it early) loads the code,
#           runs the cases and writes one record per case into SHM.
#
# It must run on CPython 3.8 and later.
import gc
import os
import sys

gc.disable()

import array
import json
import marshal
import math
import mmap
import resource
import select
import signal
import struct
from bisect import bisect_left
from stat import S_ISDIR as stat_isdir
from time import clock_gettime, monotonic

# The harness's own decoder of arguments: candidates cannot reach it (they
# may reach json's default one).
json_loads = json.JSONDecoder().decode

IN_FD = int(sys.argv[1])
OUT_FD = int(sys.argv[2])

# Verdicts, in fitness.Verdict order.
PASSED, WRONG, TLE, RTE, CE, MLE = range(6)
KINDS = {"call": 0, "io": 1, "test": 2}
CALL, IO, TEST = 0, 1, 2

DETAIL_MAX = 480  # bytes of a detail, UTF-8
REPR_MAX = 100  # characters of a value in a detail
MATERIALISE_MAX = 10000  # items of a returned iterator
SETUP_LIMIT = 10.0  # seconds a child may take before its first case
HEARTBEAT = 1.0  # seconds between pings while a candidate runs
LOOK = HEARTBEAT  # seconds between the manager's looks at a running child (setup)
FORKER_WAIT = 5.0  # seconds the forker may take to reap a killed child

# Shared memory: a header written by the child, the job written by the
# manager, the marshalled code, (with coverage) one byte per line of the
# candidate for the running case, then the records.
HDR = struct.Struct("<qdQQ")  # running case (-1: none), its start, records end, next case
CUR = struct.Struct("<qd")
# at 32: code length, lines (coverage: > 0), coverage offset, records
# offset, records end, whether the child may serve the next candidate too,
# job number, offset of the lenient runtime and plan (0: not lenient), the
# pure modules the candidate can reach (a mask, see take_snapshots), the
# end of the cases to run (a case range: the first is in HDR)
JOB = struct.Struct("<QQQQQQQQQQ")
CODE_OFF = 128  # after HDR (0-32) and JOB (32-112)
MAX_SERVED = 500  # candidates one reused child runs at most
SHM_SIZE = 32 << 20
MSG = struct.Struct("<cq")  # forker to manager: b"p" pid, b"s" wait status
REC = struct.Struct("<IBBd")  # case, verdict, flags (1 detail, 2 lines, 4 injections), seconds
U16 = struct.Struct("<H")
CAP = struct.Struct("<d")
U32 = struct.Struct("<I")
RANGE = struct.Struct("<II")  # a run request's case range: first, end
PROGRESS = struct.Struct("<HH")  # a record's asserts passed, asserts
HDR_SIZE = 64
# Room for one case's injection records (lenient mode): a u16 count, then
# per record a u32 line and three u8-length strings (kind, name, class).
INJ_MAX = 2 + 32 * (4 + 3 + 12 + 100 + 16)

EXIT_MEMORY = 0x7D  # the child ran out of memory in harness code
START = [0]  # the manager's first case of the running chunk
ASSERTS = {}  # the test file's assert lines per function (assert_lines)

NoneType = type(None)
CodeType = type(compile("", "", "exec"))
FunctionType = type(lambda: None)
ModuleType = type(sys)
modules = sys.modules
PYTEST_MODE = False  # test cases run under the real pytest (PytestCtx)
PREPARED = None  # pytest's configuration, made once in the server
PREPARED_SESSION = None  # a session of it, started in the server
PACKAGE = ""  # the target's package, when it lives in one (CandidateFinder)
MULTI = ()  # (module, file) of each target when several are repaired together
BOUNDARY = b"# ---- repair: the next file starts below ----"  # program.FileBoundary
COLLECT = False  # the server only lists what pytest collects, then exits


# ---- protocol ---------------------------------------------------------------


def read_exact(n):
    buf = bytearray()
    while len(buf) < n:
        b = os.read(IN_FD, n - len(buf))
        if not b:
            raise EOFError
        buf += b
    return bytes(buf)


def read_msg():
    (n,) = U32.unpack(read_exact(4))
    if n == 0:
        raise ValueError("empty message")
    body = read_exact(n)
    return body[:1], body[1:]


def send(kind, payload=b""):
    data = b"".join((U32.pack(len(payload) + 1), kind, payload))
    view = memoryview(data)
    while view:
        n = os.write(OUT_FD, view)
        view = view[n:]


# ---- observations ------------------------------------------------------------------
#
# The child never decides a call or I/O case's verdict, and never holds
# what the case expects: it reports what the case did (the value returned,
# the arguments after the call, the exception's class names, the output),
# and Go judges that against the suite (fitness.Check.Judge) outside the
# candidate's reach. A value is encoded by what it holds (see
# fitness/value.go for the format): subclasses of the built-in types by
# their base type's storage, never through the candidate's __len__,
# __iter__ or __eq__; anything else is its repr, which equals nothing.

ST_RETURNED, ST_RAISED, ST_FINISHED = 16, 17, 18
VALUE_MAX = 4 << 20  # bytes of an encoded value (and of the arguments)
MAX_DEPTH = 100  # nesting of an encoded value (fitness.MaxDepth)
I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1
TAG_I64 = struct.Struct("<cq")
TAG_F64 = struct.Struct("<cd")
TAG_LEN = struct.Struct("<cI")
RET_INT = struct.Struct("<cqB")  # a returned int, no arguments
NO_ARGS = b"\x00"
ENC_NONE, ENC_TRUE, ENC_FALSE = b"N", b"T", b"F"


class TooLarge(Exception):
    pass


_dict_views = (type({}.keys()), type({}.values()), type({}.items()))
_int_int, _float_new = int.__int__, float.__new__
_str_encode, _list_iter, _list_len = str.encode, list.__iter__, list.__len__
_tuple_iter, _tuple_len = tuple.__iter__, tuple.__len__
_set_iter, _set_len, _fset_iter, _fset_len = set.__iter__, set.__len__, frozenset.__iter__, frozenset.__len__
_dict_items, _dict_len = dict.items, dict.__len__


def encode_value(v):
    """The encoding of v (bytes), at most VALUE_MAX bytes: a larger value
    is its repr's, which equals nothing."""
    t = type(v)
    if t is int and I64_MIN <= v <= I64_MAX:
        return TAG_I64.pack(b"i", v)
    out = bytearray()
    try:
        _encode(v, out, set(), 0)
    except TooLarge:
        out = bytearray()
        _opaque("<%s too large to compare: over %d bytes encoded>" % (t.__name__, VALUE_MAX), out)
    return out


def _opaque(text, out):
    b = _str_encode(text, "utf-8", "replace")
    out += TAG_LEN.pack(b"x", len(b))
    out += b


def _encode(v, out, active, depth):
    t = type(v)
    if t is int or t is bool or v is None:
        if v is None:
            out += ENC_NONE
        elif t is bool:
            out += ENC_TRUE if v else ENC_FALSE
        elif I64_MIN <= v <= I64_MAX:
            out += TAG_I64.pack(b"i", v)
        else:
            _encode_big(v, out)
        return
    if t is str:
        b = _str_encode(v, "utf-8", "surrogatepass")
        out += TAG_LEN.pack(b"s", len(b))
        out += b
        if len(out) > VALUE_MAX:
            raise TooLarge
        return
    if t is float:
        out += TAG_F64.pack(b"f", v)
        return
    if depth >= MAX_DEPTH:
        _opaque("<nested deeper than %d>" % MAX_DEPTH, out)
        return
    if t is list or t is tuple or t is set or t is frozenset or t is dict:
        _encode_container(v, t, out, active, depth)
        return
    if issubclass(t, int):  # an int subclass (an IntEnum...): the int it holds
        _encode(_int_int(v), out, active, depth)
    elif issubclass(t, float):
        out += TAG_F64.pack(b"f", v)  # struct reads the stored double
    elif issubclass(t, str):
        _encode(_str_encode(v, "utf-8", "surrogatepass").decode("utf-8", "surrogatepass"), out, active, depth)
    elif issubclass(t, (list, tuple, set, frozenset, dict)):
        for base in (list, tuple, dict, frozenset, set):
            if issubclass(t, base):
                _encode_container(v, base, out, active, depth)
                return
    elif t is range or t in _dict_views or (hasattr(t, "__next__") and hasattr(t, "__iter__")):
        items = []
        for x in v:  # the candidate's own iterator: its code runs here
            if len(items) == MATERIALISE_MAX:
                _opaque("<%s of more than %d items>" % (t.__name__, MATERIALISE_MAX), out)
                return
            items.append(x)
        _encode_container(items, list, out, active, depth)
    else:
        _opaque(short_repr(v), out)


def _encode_big(v, out):
    n = (v.bit_length() + 8) // 8
    if n > VALUE_MAX:
        raise TooLarge
    b = int.to_bytes(v, n, "little", signed=True)
    out += TAG_LEN.pack(b"I", n)
    out += b


_CONTAINERS = {
    list: (b"l", _list_iter, _list_len),
    tuple: (b"t", _tuple_iter, _tuple_len),
    set: (b"S", _set_iter, _set_len),
    frozenset: (b"z", _fset_iter, _fset_len),
}


def _encode_container(v, base, out, active, depth):
    """v, an instance of base (or of a subclass), by what base holds."""
    key = id(v)
    if key in active:
        _opaque("[...]" if base is list else "{...}" if base is dict else "(...)", out)
        return
    active.add(key)
    depth += 1
    enc = _encode
    pack = TAG_I64.pack
    if base is dict:
        out += TAG_LEN.pack(b"d", _dict_len(v))
        for k, x in _dict_items(v):
            enc(k, out, active, depth)
            enc(x, out, active, depth)
    else:
        tag, it, ln = _CONTAINERS[base]
        out += TAG_LEN.pack(tag, ln(v))
        for x in it(v):
            if type(x) is int and I64_MIN <= x <= I64_MAX:
                out += pack(b"i", x)
            else:
                enc(x, out, active, depth)
    active.discard(key)
    if len(out) > VALUE_MAX:
        raise TooLarge


def observe_return(r, args):
    """The payload of a returned call (args: the arguments to report after
    the call, or None)."""
    val = encode_value(r)
    if args is None:
        return val + NO_ARGS
    a = encode_value(list(args))
    return b"".join((val, b"\x01", a))


def observe_raise(e):
    """The payload of a raised exception: flags (1: a MemoryError), then
    the class names of its type's __mro__."""
    t = type(e)
    names = []
    for k in t.__mro__[:32]:
        n = k.__name__
        b = _str_encode(n if type(n) is str else "?", "utf-8", "replace")[:255]
        names.append(bytes((len(b),)) + b)
    flags = 1 if issubclass(t, MemoryError) else 0
    return bytes((flags, len(names))) + b"".join(names)


def observe_output(out):
    """The payload of an I/O case that ran to its end."""
    text = out.getvalue()
    b = _str_encode(text, "utf-8", "surrogatepass")
    over = out.n > OUTPUT_CAP
    if len(b) > VALUE_MAX:
        b, over = b[:VALUE_MAX], True
    return b"".join((b"\x01" if over else b"\x00", U32.pack(len(b)), b))


# ---- details ------------------------------------------------------------------


def short_repr(x, limit=REPR_MAX):
    """repr(x) shortened to about limit characters, without building a huge
    string for a huge container, int or str."""
    t = type(x)
    if t is int and -10**15 < x < 10**15 or t is bool or x is None:
        return repr(x)
    try:
        if t is str:
            r = repr(x[: limit + 2])
        elif t is int and x.bit_length() > 3 * limit:
            r = "<int of %d bits>" % x.bit_length()
        elif t in (list, tuple, set, frozenset, dict):
            r = container_repr(x, limit)
        else:
            r = repr(x)
    except BaseException as e:  # a candidate's __repr__ may raise anything
        r = "<%s object; repr failed: %s>" % (type(x).__name__, type(e).__name__)
    if len(r) > limit:
        r = r[: limit - 3] + "..."
    return r


_BRACKETS = {list: ("[", "]"), tuple: ("(", ")"), set: ("{", "}"), frozenset: ("frozenset({", "})"), dict: ("{", "}")}
_EMPTY = {list: "[]", tuple: "()", set: "set()", frozenset: "frozenset()", dict: "{}"}


_ACTIVE = set()  # ids of the containers being written: [...] where one recurs


def container_repr(x, limit):
    t = type(x)
    if not x:
        return _EMPTY[t]
    if id(x) in _ACTIVE or len(_ACTIVE) > limit:
        return "[...]" if t is list else "{...}" if t is dict else "..."
    _ACTIVE.add(id(x))
    try:
        return _container_repr(x, t, limit)
    finally:
        _ACTIVE.discard(id(x))


def _container_repr(x, t, limit):
    open_, close = _BRACKETS[t]
    if t is dict:
        items = (short_repr(k, limit) + ": " + short_repr(v, limit) for k, v in x.items())
    else:
        items = (short_repr(v, limit) for v in x)
    parts = []
    n = len(open_)
    for s in items:
        parts.append(s)
        n += len(s) + 2
        if n > limit:
            parts.append("...")
            break
    body = ", ".join(parts)
    if t is tuple and len(x) == 1:
        body += ","
    return open_ + body + close


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


# ---- configuration --------------------------------------------------------------


# What the child needs of a case to run it: never what it expects (Go
# keeps that, see "observations"). A tuple: nothing a candidate does can
# change it for the next one. args is a tuple of scalars, or None (decode
# args_json); kwargs a tuple of (name, scalar) pairs, or None (decode
# kwargs_json).
def _case_class():
    from collections import namedtuple

    return namedtuple("Case", "kind fn fn_head fn_rest args args_json kwargs kwargs_json want_args stdin timeout")


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
        tuple(args) if scalar_args else None, None if scalar_args else json.dumps(args),
        tuple(kwargs.items()) if scalar_kwargs else None, None if scalar_kwargs else json.dumps(kwargs),
        bool(c.get("want_args")), c.get("stdin"), float(c.get("timeout") or 2.0),
    )


# ---- standard streams -------------------------------------------------------------


class Output:
    """sys.stdout and sys.stderr of a case: keeps the first OUTPUT_CAP
    characters, counts the rest."""

    __slots__ = ("parts", "n", "closed", "_buffer")
    encoding = "utf-8"
    errors = "strict"
    newlines = None
    mode = "w"
    name = "<stdout>"

    def __init__(self):
        self.parts = []
        self.n = 0
        self.closed = False
        self._buffer = None

    def write(self, s):
        if self.closed:
            raise ValueError("I/O operation on closed file.")
        if not isinstance(s, str):
            raise TypeError("write() argument must be str, not %s" % type(s).__name__)
        n = self.n
        if n < OUTPUT_CAP:
            self.parts.append(s)
        self.n = n + len(s)
        return len(s)

    def writelines(self, lines):
        for s in lines:
            self.write(s)

    def flush(self):
        if self.closed:
            raise ValueError("I/O operation on closed file.")

    def close(self):
        self.closed = True

    def isatty(self):
        return False

    def readable(self):
        return False

    def writable(self):
        return True

    def seekable(self):
        return False

    def fileno(self):
        import io

        raise io.UnsupportedOperation("fileno")

    @property
    def buffer(self):
        if self._buffer is None:
            self._buffer = BinaryOutput(self)
        return self._buffer

    def getvalue(self):
        return "".join(self.parts)[:OUTPUT_CAP]

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()


class BinaryOutput:
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def write(self, b):
        self.text.write(bytes(b).decode("utf-8", "replace"))
        return len(b)

    def flush(self):
        self.text.flush()

    def close(self):
        self.text.close()

    @property
    def closed(self):
        return self.text.closed


def make_stdin(text):
    import io

    return io.TextIOWrapper(io.BytesIO(text.encode("utf-8", "surrogateescape")), encoding="utf-8")


# ---- pytest stand-in -----------------------------------------------------------------


def make_pytest():
    """A small stand-in for pytest (not importable under -S, and far too
    big for the fork server): raises, approx, fail, skip, param, fixture and
    mark (parametrize, skip, skipif, xfail)."""
    m = ModuleType("pytest")

    class Skipped(Exception):
        pass

    class RaisesContext:
        def __init__(self, exc, match):
            self.expected, self.match = exc, match
            self.value = self.type = None

        def __enter__(self):
            return self

        def __exit__(self, et, ev, tb):
            if et is None:
                raise AssertionError("DID NOT RAISE %r" % (self.expected,))
            if not issubclass(et, self.expected):
                return False
            if self.match is not None:
                import re

                if not re.search(self.match, str(ev)):
                    raise AssertionError("Regex pattern %r does not match %r" % (self.match, str(ev)))
            self.value, self.type = ev, et
            return True

    def raises(exc, *args, match=None, **kwargs):
        ctx = RaisesContext(exc, match)
        if not args:
            return ctx
        with ctx:
            args[0](*args[1:], **kwargs)
        return ctx

    class approx:
        def __init__(self, expected, rel=None, abs=None):
            self.expected, self.rel, self.abs = expected, rel, abs

        def _close(self, e, a):
            if isinstance(e, (list, tuple)):
                return isinstance(a, (list, tuple)) and len(a) == len(e) and all(self._close(x, y) for x, y in zip(e, a))
            if isinstance(e, dict):
                return isinstance(a, dict) and a.keys() == e.keys() and all(self._close(e[k], a[k]) for k in e)
            if isinstance(e, (int, float)) and not isinstance(e, bool) and isinstance(a, (int, float)):
                rel = 1e-6 if self.rel is None else self.rel
                ab = 1e-12 if self.abs is None else self.abs
                if e == a:
                    return True
                return abs_(e - a) <= max(rel * abs_(e), ab)
            return e == a

        def __eq__(self, other):
            return self._close(self.expected, other)

        def __ne__(self, other):
            return not self.__eq__(other)

        __hash__ = None

        def __repr__(self):
            return "approx(%r)" % (self.expected,)

    abs_ = abs

    class Mark:
        def __init__(self, name, args=(), kwargs=None):
            self.name, self.args, self.kwargs = name, args, kwargs or {}

        def __call__(self, *args, **kwargs):
            if len(args) == 1 and not kwargs and callable(args[0]):
                f = args[0]
                f.pytestmark = list(getattr(f, "pytestmark", [])) + [self]
                return f
            return Mark(self.name, args, kwargs)

    class MarkGenerator:
        def __getattr__(self, name):
            if name.startswith("__"):
                raise AttributeError(name)
            return Mark(name)

    class ParameterSet(tuple):
        pass

    def param(*values, **kwargs):
        return ParameterSet(values)

    def fixture(*args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]
        return lambda f: f

    def fail(msg="", pytrace=True):
        raise AssertionError(msg)

    def skip(msg="", **kwargs):
        raise Skipped(msg)

    m.raises, m.approx, m.mark, m.param = raises, approx, MarkGenerator(), param
    m.fixture, m.fail, m.skip, m.Skipped, m.ParameterSet = fixture, fail, skip, Skipped, ParameterSet
    return m


def test_calls(fn, pytest):
    """The keyword arguments of every call of a test function (one per
    parametrize combination), or None when it is skipped."""
    combos = [{}]
    for mk in getattr(fn, "pytestmark", ()):
        name = getattr(mk, "name", "")
        if name == "skip":
            return None
        if name == "skipif" and mk.args and mk.args[0]:
            return None
        if name == "parametrize" and len(mk.args) >= 2:
            names, values = mk.args[0], mk.args[1]
            if isinstance(names, str):
                names = [n.strip() for n in names.split(",") if n.strip()]
            names = list(names)
            new = []
            for v in values:
                vals = tuple(v) if len(names) > 1 or isinstance(v, pytest.ParameterSet) else (v,)
                for base in combos:
                    d = dict(base)
                    d.update(zip(names, vals))
                    new.append(d)
            combos = new
    return combos


def missing_fixtures(fn, calls):
    """The first parameter of a test function that no parametrize gives
    and that has no default: a fixture only pytest provides."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    n = code.co_argcount + code.co_kwonlyargcount
    names = code.co_varnames[:n]
    defaults = len(getattr(fn, "__defaults__", None) or ())
    required = names[: code.co_argcount - defaults] + tuple(
        k for k in names[code.co_argcount :] if k not in (getattr(fn, "__kwdefaults__", None) or {})
    )
    for name in required:
        if any(name not in kw for kw in calls):
            return name
    return None


def drive(coro):
    """Runs a coroutine that awaits nothing but other coroutines."""
    try:
        while True:
            coro.send(None)
    except StopIteration as s:
        return s.value


# ---- reuse of a child for pure candidates -----------------------------------------------
#
# A fork per candidate costs far more than running a small candidate's cases
# (copy-on-write faults of a CPython process). A candidate whose code can
# only touch its own objects may therefore run in the child of the previous
# candidate instead of a fresh fork, when that previous candidate was pure
# too and provably left the process as it found it. "Pure" is decided
# statically on the bytecode (no name that reaches interpreter or process
# state, imports only of preloaded modules of PURE_MODULES), and checked
# again after the candidate: builtins, the preloaded modules and their
# classes unchanged, no new module, no process or thread left, no
# MemoryError, no garbage with finalizers. Anything else gets a fresh
# fork, exactly as without this optimisation.

PURE_MODULES = frozenset((
    "array", "bisect", "cmath", "collections", "collections.abc", "copy", "dataclasses",
    "datetime", "enum", "fractions", "functools", "heapq", "itertools", "json", "keyword",
    "math", "numbers", "operator", "pprint", "re", "statistics", "string", "textwrap",
    "time", "typing", "unicodedata",
))

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

_OPS = None


def _opcodes():
    global _OPS
    if _OPS is None:
        import dis

        _OPS = (dis.opmap["EXTENDED_ARG"], dis.opmap["IMPORT_NAME"],
                {dis.opmap[o] for o in ("STORE_ATTR", "DELETE_ATTR") if o in dis.opmap})
    return _OPS


def pure_code(code, extra_imports=()):
    """(0, 0) if code (or a code object in it) is not pure (see above),
    else (1 or 2 when it also stores or deletes no attribute at all (see
    run_pure_calls), the mask of the pure modules it can reach)."""
    ext_op, import_op, store_ops = _opcodes()
    attrs = False
    mask = 0
    reach = REACH
    deny = DENY
    checked = STATIC_CHECK
    stack = [code]
    while stack:
        co = stack.pop()
        names = co.co_names
        for name in names:
            if name in deny and checked:
                return 0, 0
        b = co.co_code
        ext = 0
        for i in range(0, len(b), 2):
            op = b[i]
            if op == ext_op:
                ext = (ext | b[i + 1]) << 8
                continue
            arg = ext | b[i + 1]
            ext = 0
            if op == import_op:
                name = names[arg]
                if name in extra_imports:
                    continue
                if name not in PURE_MODULES or name not in modules:
                    return 0, 0
                mask |= reach.get(name, 0)
            elif op in store_ops:
                attrs = True
                name = names[arg]
                if name.startswith("__") and name.endswith("__") and checked:
                    return 0, 0
        consts = list(co.co_consts)
        while consts:
            k = consts.pop()
            t = type(k)
            if t is CodeType:
                stack.append(k)
            elif t is str and checked:
                if k in deny or (k[:2] == "__" and k[-2:] == "__" and k not in CONST_DUNDERS):
                    return 0, 0
            elif t is tuple or t is frozenset:
                consts.extend(k)
    return (1 if attrs else 2), mask


def imported_names(code):
    """The modules code imports (top-level names of IMPORT_NAME)."""
    ext_op, import_op, _ = _opcodes()
    out = set()
    stack = [code]
    while stack:
        co = stack.pop()
        b = co.co_code
        ext = 0
        for i in range(0, len(b), 2):
            op = b[i]
            if op == ext_op:
                ext = (ext | b[i + 1]) << 8
                continue
            if op == import_op:
                out.add(co.co_names[ext | b[i + 1]])
            ext = 0
        stack.extend(k for k in co.co_consts if type(k) is CodeType)
    return out


def take_snapshots(names):
    """Preloads the pure modules among names and records the state a pure
    candidate must leave unchanged, by module: GROUPS[i] are the dicts of
    the i-th pure module loaded (its own, its classes', its objects'), and
    REACH[name] the mask of the modules one can reach from module name
    through module attributes (itself included), which the guard checks
    after a candidate that imports it. Extends DENY with the names of their
    mutable attributes and of the modules they reach that are not pure."""
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
    for name in loaded:
        m = modules[name]
        d = m.__dict__
        snaps = [(d, dict(d))]
        links[name] = {name}
        for k, v in list(d.items()):
            if type(v) is ModuleType:
                if v.__name__ not in PURE_MODULES:
                    deny.add(k)
                elif v.__name__ in index:
                    links[name].add(v.__name__)
            elif isinstance(v, type):
                if not v.__flags__ & (1 << 8) and id(v) not in seen:  # a class whose attributes can be set
                    seen.add(id(v))
                    snaps.append((v.__dict__, dict(v.__dict__)))
                    for ck, cv in list(v.__dict__.items()):
                        if not callable(cv) and not isinstance(cv, immutable) and not isinstance(cv, (property, classmethod, staticmethod)):
                            deny.add(ck)
                        attrs(cv, snaps)
            else:
                if not callable(v) and not isinstance(v, immutable):
                    deny.add(k)
                attrs(v, snaps)
        groups.append(snaps)
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
    if PYTEST is not None:  # the stand-in is shared by every candidate's tests too
        always.append((PYTEST.__dict__, dict(PYTEST.__dict__)))
        for v in list(PYTEST.__dict__.values()):
            if isinstance(v, type):
                always.append((v.__dict__, dict(v.__dict__)))
            else:
                attrs(v, always)
    DENY = frozenset(deny)
    BUILTINS_GROUP = always
    GROUPS = tuple((tuple(d for d, _ in g), tuple(c for _, c in g)) for g in groups)
    REACH = reach


def make_guard():
    """Sets LEFT_CLEAN, the check run after a pure candidate, in its child,
    before that child may serve another one (see above): a closure over
    what it compares, so that rebinding a global of the harness cannot
    switch it off. Call it once the harness's globals are all set (main)."""
    global LEFT_CLEAN
    mods, base = modules, BASE_MODULES
    flags, thread_count, collect, garbage = Flags, _thread_count, gc.collect, gc.garbage
    gettrace, getprofile, listdir, getcwd = sys.gettrace, sys.getprofile, os.listdir, os.getcwd
    cwd = getcwd()
    only_lib = ["lib"]
    dicts = copies = funcs = codes = ()
    groups, test_mask = GROUPS, TEST_MASK
    import operator

    code_of = operator.attrgetter("__code__", "__defaults__", "__kwdefaults__")
    ne = operator.ne

    def left_clean(mods0, base0, mask):
        """Whether the process is as a pure candidate must have left it:
        no fork, thread, MemoryError or uncollectable garbage; the same
        modules; builtins, the pure modules it could reach (mask), the
        pytest stand-in and the harness's globals, classes and functions
        unchanged; no tracer; the working directory as empty as it was."""
        if flags.forked or flags.memory or thread_count() or mods != mods0 or base != base0:
            return False
        if gettrace() is not None or getprofile() is not None:
            return False
        collect()
        if garbage:
            return False
        if any(map(ne, dicts, copies)):
            return False
        mask |= test_mask
        while mask:
            low = mask & -mask
            mask ^= low
            ds, cs = groups[low.bit_length() - 1]
            if any(map(ne, ds, cs)):
                return False
        if list(map(code_of, funcs)) != codes:
            return False
        try:
            return getcwd() == cwd and listdir(".") == only_lib
        except OSError:
            return False

    LEFT_CLEAN = left_clean
    hdict = modules["__main__"].__dict__
    found = []

    def add_functions(d):
        for v in list(d.values()):
            if type(v) in (staticmethod, classmethod):
                v = v.__func__
            if type(v) is property:
                fs = (v.fget, v.fset, v.fdel)
            else:
                fs = (v,)
            for f in fs:
                if type(f) is FunctionType:
                    found.append(f)

    dicts = [hdict]
    if PYTEST is not None:
        dicts.append(PYTEST.__dict__)
    classes = []
    for d in list(dicts):
        for v in list(d.values()):
            if isinstance(v, type) and v.__module__ in ("__main__", "pytest"):
                classes.append((v.__dict__, dict(v.__dict__)))
                dicts.append(v.__dict__)
    for d in dicts:
        add_functions(d)
    snaps = BUILTINS_GROUP + classes + [(hdict, dict(hdict))]
    dicts = tuple(d for d, _ in snaps)
    copies = tuple(c for _, c in snaps)
    funcs = tuple(found)
    codes = list(map(code_of, funcs))


# ---- the child: runs the cases ---------------------------------------------------------


class Flags:
    copy = False  # this process is a fork made by candidate code
    forked = False  # candidate code forked during the case
    memory = False  # a case ran out of memory


def _after_fork_child():
    Flags.copy = True


def _after_fork_parent():
    Flags.forked = True


def child_main():
    """Runs in a fresh fork of the forker; never returns. After a pure
    candidate that left the process clean it tells the manager and waits
    for the next one (see above)."""
    try:
        Flags.copy = Flags.forked = Flags.memory = False
        os.setpgid(0, 0)  # the manager kills the group at a deadline
        os.dup2(1, 2)  # fd 1 is /dev/null; fd 2 was the server's diagnostics
        lo, hi = min(GO_R, DONE_W), max(GO_R, DONE_W)
        os.closerange(3, lo)  # the forker's pipes, but not the job pipes
        os.closerange(lo + 1, hi)
        os.closerange(hi + 1, 1 << 16)
        mem = MEMORY_MB << 20
        try:
            resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        except (ValueError, OSError):
            pass
        gc.enable()
        served = 0
        clean = LEFT_CLEAN
        mods0, base0 = dict(modules), set(BASE_MODULES)
        while True:
            shm = SHM
            _, _, _, start = HDR.unpack_from(shm, 0)
            code_len, L, covoff, recbase, cap, reuse, job, lx_off, mask, end = JOB.unpack_from(shm, 32)
            if not reuse:
                os.close(GO_R)
                os.close(DONE_W)
            code = marshal.loads(shm[CODE_OFF : CODE_OFF + code_len])
            used = resource.getrusage(resource.RUSAGE_SELF)
            cpu = int(used.ru_utime + used.ru_stime) + CPU_LIMITS[start]
            try:
                resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
            except (ValueError, OSError):
                pass
            run_cases(shm, start, end, code, L, covoff, recbase, cap, reuse, lx_off)
            del code
            served += 1
            if not reuse or served >= MAX_SERVED or not clean(mods0, base0, mask):
                os._exit(0)
            os.write(DONE_W, b"d")
            while True:
                b = os.read(GO_R, 1)
                if b != b"g":
                    os._exit(0)
                if JOB.unpack_from(SHM, 32)[6] != job:
                    break  # else a stale wake-up: the job was not for us
    except MemoryError:
        os._exit(EXIT_MEMORY)
    except BaseException:
        os._exit(3)
    os._exit(0)


def run_cases(shm, start, end, code, L, covoff, recbase, cap, pure, lx_off):
    """Runs cases start..end-1 of the candidate code."""
    if pure and ALL_CALLS and L == 0:
        return run_pure_calls(shm, start, end, code, recbase, cap, pure == 2)
    hdr_pack = HDR.pack_into
    rec_pack = REC.pack_into
    clock = monotonic
    flags = Flags
    cases = CASES
    n = end
    thread_count = _thread_count
    getrl, setrl = sys.getrecursionlimit, sys.setrecursionlimit
    nmods = len(modules)
    harness_main = modules["__main__"]
    cov = L > 0
    maxrec = REC.size + 2 + DETAIL_MAX + 4 + 4 * L + PROGRESS.size
    if cov:
        covmv = memoryview(shm)[covoff : covoff + L]
        zeros = bytes(L)
        tracer = make_tracer(covmv, L, code[1] if MULTI else None)
    lx = None
    if lx_off:
        lx = load_lenient(shm, lx_off)
        maxrec += INJ_MAX
        ctx = LenientPytestCtx(code, lx) if PYTEST_MODE else LenientCtx(code, lx)
    elif PYTEST_MODE:
        ctx = PytestCtx(code)
    else:
        ctx = Ctx(code)
    trace_all = cov and not PYTEST_MODE
    used = recbase
    out = err = None
    i = start
    t0 = clock()
    hdr_pack(shm, 0, i, t0, used, i)
    while i < n:
        c = cases[i]
        if out is None or out.n or out.closed:
            out = Output()
        if err is None or err.n or err.closed:
            err = Output()
        sys.stdout = out
        sys.stderr = err
        sys.stdin = EMPTY_STDIN if c.stdin is None else make_stdin(c.stdin)
        if trace_all:
            sys.settrace(tracer)
        kind = c.kind
        if kind == CALL:
            status, payload, detail = ctx.run_call(c)
        elif kind == IO:
            status, payload, detail = ctx.run_io(c, out)
        elif PYTEST_MODE:
            status, payload, detail = ctx.run_test(c, (tracer, covmv) if cov else None)
        else:
            status, payload, detail = ctx.run_test(c)
        if trace_all:
            sys.settrace(None)
        if flags.copy:
            os._exit(0)  # a fork of the candidate came back into the harness
        t1 = clock()
        if used + len(payload) + maxrec > cap:
            # No room for this record: a fresh child runs the case again
            # with an empty record area.
            hdr_pack(shm, 0, -1, t1, used, i)
            os._exit(0)
        progress = ctx.progress
        if progress is not None:
            ctx.progress = None
        if lx is not None:
            used = put_record(shm, used, i, status, t1 - t0, payload, detail, covmv if cov else None, lx.take(), progress)
            if cov:
                covmv[:] = zeros
        elif detail or cov or progress:
            used = put_record(shm, used, i, status, t1 - t0, payload, detail, covmv if cov else None, None, progress)
            if cov:
                covmv[:] = zeros
        else:
            rec_pack(shm, used, i, status, 0, t1 - t0)
            used += 14
            shm[used : used + len(payload)] = payload
            used += len(payload)
        i += 1
        # Restore what a case may have changed for the next one (a pytest
        # session keeps its modules from one test to the next, as pytest
        # does).
        if not PYTEST_MODE:
            modules.pop(MODULE, None)
            if TEST_MODULE:
                modules.pop(TEST_MODULE, None)
            if len(modules) != nmods:
                nmods = prune_modules(BASE_MODULES)
        if modules.get("__main__") is not harness_main:
            modules["__main__"] = harness_main
        if tuple(sys.path) != PATH0:
            sys.path = list(PATH0)
        if getrl() != RECURSION_LIMIT:
            setrl(RECURSION_LIMIT)
        if EMPTY_STDIN.closed:
            reset_empty_stdin()
        del c, detail, payload
        # A case that left processes or threads behind, or a full record
        # area, ends this child at a case boundary: the forker kills what is
        # left and the manager has a fresh child run the remaining cases.
        if i < n and (flags.forked or thread_count() or used + maxrec > cap):
            hdr_pack(shm, 0, -1, t1, used, i)
            os._exit(0)
        hdr_pack(shm, 0, i, t1, used, i)
        t0 = t1
    hdr_pack(shm, 0, -1, clock(), used, i)


def run_pure_calls(shm, start, end, code, recbase, cap, keep_module):
    """run_cases for call cases of a pure candidate: such code cannot reach
    sys, fork or start threads, so only what it can change is restored
    between cases.

    With keep_module (the candidate stores no attribute anywhere), the
    module is not executed again for the next case while it provably holds
    what a fresh import would: its body ran in under a millisecond and made
    only functions of its own with immutable defaults, immutable constants
    and things of pure standard-library modules, and the case left its
    globals as they were. Without attribute stores, pure code cannot change
    anything such a module body reads, so executing it again would make the
    same module."""
    hdr_pack = HDR.pack_into
    rec_pack = REC.pack_into
    clock = monotonic
    cases = CASES
    n = end
    mods = modules
    modname = MODULE
    maxrec = REC.size + 2 + DETAIL_MAX + 4
    ctx = Ctx(code)
    run_call, run_in = ctx.run_call, ctx.run_call_in
    out = Output()
    sys.stdout = out
    sys.stderr = Output()
    sys.stdin = EMPTY_STDIN
    nmods = len(mods)
    used = recbase
    m = d = snap = None
    i = start
    t0 = clock()
    hdr_pack(shm, 0, i, t0, used, i)
    while i < n:
        if d is not None:
            mods[modname] = m
            status, payload, detail = run_in(cases[i], d)
            if d != snap:
                d = None
        elif keep_module:
            m, d, snap = ctx.reusable_module()
            if d is None:
                keep_module = False
                status, payload, detail = run_call(cases[i])
            else:
                status, payload, detail = run_in(cases[i], d)
                if d != snap:
                    d = None
        else:
            status, payload, detail = run_call(cases[i])
        t1 = clock()
        if used + len(payload) + maxrec > cap:
            hdr_pack(shm, 0, -1, t1, used, i)  # no room: a fresh child runs it again
            os._exit(0)
        if detail:
            used = put_record(shm, used, i, status, t1 - t0, payload, detail, None)
        else:
            rec_pack(shm, used, i, status, 0, t1 - t0)
            used += 14
            shm[used : used + len(payload)] = payload
            used += len(payload)
        i += 1
        mods.pop(modname, None)
        if len(mods) != nmods:
            nmods = prune_modules(BASE_MODULES)
        if out.n:
            out = Output()
            sys.stdout = out
        del detail, payload
        if i < n and used + maxrec > cap:
            hdr_pack(shm, 0, -1, t1, used, i)
            os._exit(0)
        hdr_pack(shm, 0, i, t1, used, i)
        t0 = t1
    hdr_pack(shm, 0, -1, clock(), used, i)


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


def put_record(shm, used, i, status, secs, payload, detail, covmv, injections=None, progress=None):
    """Appends one record (see decodeRecords in server.go) at used and
    returns the new end: status is a verdict (of a death, or of a test
    case) or an ending (ST_*) whose observation is payload; progress, of a
    failing test function, is (asserts passed, asserts)."""
    fl = (1 if detail else 0) | (2 if covmv is not None else 0) | (4 if injections is not None else 0) | (8 if progress else 0)
    REC.pack_into(shm, used, i, status, fl, secs)
    used += REC.size
    if payload:
        shm[used : used + len(payload)] = payload
        used += len(payload)
    if detail:
        b = detail.encode("utf-8", "replace")
        if len(b) > DETAIL_MAX:
            b = b[:DETAIL_MAX].decode("utf-8", "ignore").encode("utf-8")
        U16.pack_into(shm, used, len(b))
        shm[used + 2 : used + 2 + len(b)] = b
        used += 2 + len(b)
    if covmv is not None:
        raw = covmv.tobytes()
        lines = array.array("I")
        p = raw.find(1)
        while p >= 0:
            lines.append(p)
            p = raw.find(1, p + 1)
        U32.pack_into(shm, used, len(lines))
        b = lines.tobytes()
        shm[used + 4 : used + 4 + len(b)] = b
        used += 4 + len(b)
    if injections is not None:
        used = put_injections(shm, used, injections)
    if progress:
        PROGRESS.pack_into(shm, used, min(progress[0], 0xFFFF), min(progress[1], 0xFFFF))
        used += PROGRESS.size
    return used


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


def put_injections(shm, used, injections):
    """A case's injection records (lenient mode), at most INJ_MAX bytes."""
    injections = injections[:32]
    U16.pack_into(shm, used, len(injections))
    used += 2
    for line, kind, name, cls in injections:
        U32.pack_into(shm, used, line if 0 <= line < 1 << 32 else 0)
        used += 4
        for s, m in ((kind, 12), (name, 100), (cls, 16)):
            b = s.encode("utf-8", "replace")[:m]
            shm[used] = len(b)
            shm[used + 1 : used + 1 + len(b)] = b
            used += 1 + len(b)
    return used


def load_lenient(shm, off):
    """The lenient runtime (lenient.py), set up with the job's plan."""
    (n,) = U32.unpack_from(shm, off)
    code = marshal.loads(shm[off + 4 : off + 4 + n])
    off += 4 + n
    (n,) = U32.unpack_from(shm, off)
    plan = bytes(shm[off + 4 : off + 4 + n])
    lx = ModuleType("repair_lenient")
    exec(code, lx.__dict__)
    lx.setup(plan, CAND_FILE, MODULE)
    return lx


def prune_modules(base):
    """Forget the candidate and every module imported during the case that
    is not from the standard library (helpers next to the target), so that
    the next case imports them afresh."""
    for name in list(modules):
        if name in base and name != MODULE and name != TEST_MODULE:
            continue
        m = modules.get(name)
        f = getattr(m, "__file__", None) if m is not None else None
        if name == MODULE or name == TEST_MODULE or (isinstance(f, str) and f.startswith(LIB_PREFIX)):
            del modules[name]
        else:
            base.add(name)
    return len(modules)


def make_tracer(covmv, L, offsets=None):
    if offsets is not None:
        return make_multi_tracer(covmv, L, offsets)
    cand = CAND_FILE

    def local(frame, event, arg):
        if event == "line":
            ln = frame.f_lineno
            if 0 < ln < L:
                covmv[ln] = 1
        return local

    def glob(frame, event, arg):
        if frame.f_code.co_filename == cand:
            return local
        return None

    return glob


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


def make_multi_tracer(covmv, L, offsets):
    """make_tracer for several targets: a line of target k counts at its
    line of the joined program, after offsets[k] lines."""
    by_file = {f: off for (_, f), off in zip(MULTI, offsets)}

    def tracer_for(off):
        def local(frame, event, arg):
            if event == "line":
                ln = frame.f_lineno + off
                if 0 < ln < L:
                    covmv[ln] = 1
            return local

        return local

    locals_ = {f: tracer_for(off) for f, off in by_file.items()}

    def glob(frame, event, arg):
        return locals_.get(frame.f_code.co_filename)

    return glob


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

        spec = ModuleSpec(fullname, cls, origin=found[1])
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
        if PACKAGE:
            importlib.import_module(PACKAGE)
        del codes[MODULE]  # run as __main__, not imported
        m = ModuleType("__main__")
        d = m.__dict__
        d["__file__"] = CAND_FILE
        d["__package__"] = PACKAGE or None
        modules["__main__"] = m
        exec(self.code[0][0] if MULTI else self.code, d)
        return d

    def reusable_module(self):
        """A fresh module, its dict and a copy of it if the module can serve
        more than one case (see run_pure_calls), else (None, None, None)."""
        t = monotonic()
        try:
            d = self.fresh(MODULE)
        except BaseException:
            return None, None, None
        if monotonic() - t > 0.001:
            return None, None, None
        for k, v in d.items():
            if not reusable_value(k, v, d):
                return None, None, None
        return modules[MODULE], d, dict(d)

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
                args = json_loads(c.args_json)
            kwargs = c.kwargs
            if kwargs:
                r = f(*args, **dict(kwargs))
            elif kwargs is None:
                r = f(*args, **json_loads(c.kwargs_json))
            else:
                r = f(*args)
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
            self.fresh(MODULE)
            tm = ModuleType(TEST_MODULE)
            td = tm.__dict__
            td["__file__"] = TEST_FILE
            modules[TEST_MODULE] = tm
            exec(TEST_CODE, td)
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


class PytestCtx(Ctx):
    """Runs test cases with the real pytest (PYTEST_MODE): the candidate is
    installed as its module, then one pytest session of this child collects
    the test file (and its conftest.py) and runs the cases' items one at a
    time, as `pytest` would in one process. Verdicts are pytest's: a
    failed assert is WRONG, any other error (in the test, a fixture or the
    collection) RUNTIME_ERROR; a test the candidate makes skip fails too,
    while a skip or skipif mark, an xfail that fails and a non-strict
    xpass count as pytest counts them."""

    def __init__(self, code):
        Ctx.__init__(self, code)
        self.items = None  # nodeid -> item, once collected
        self.error = None  # why the session could not start or collect
        self.excinfo = {}
        self.import_cov = None

    def session(self, cov):
        try:
            if cov is not None:
                sys.settrace(cov[0])
            try:
                self.fresh(MODULE)
            finally:
                if cov is not None:
                    sys.settrace(None)
                    self.import_cov = bytes(cov[1])
        except BaseException as e:
            self.error = (RTE, exc_detail(e, FILES))
            e.__traceback__ = None
            return
        try:
            self.items, errors = pytest_collect(self)
            if errors:
                self.error = (RTE, errors)
        except BaseException as e:
            self.items = {}
            self.error = (RTE, "pytest: " + exc_detail(e, FILES))

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


def collect_items(original):
    """What pytest collects with the original program as the target: the
    node ids and their lines, and the collection error if any."""
    sys.stdout = Output()
    sys.stderr = Output()
    try:
        if MULTI:
            code = compile_joined(original.encode("utf-8", "surrogateescape"))
        else:
            code = compile(original, CAND_FILE, "exec", dont_inherit=True)
    except BaseException as e:
        return {"items": [], "error": "the target does not compile: %s" % exc_detail(e, FILES)}
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
        TEST_FILE, "--rootdir", LIB_PREFIX[:-1], "-s",
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

        rw._rewrite_test(Path(TEST_FILE), config)
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


def pytest_collect(ctx):
    """A configured session's items by node id, and the collection errors
    (one line) or None."""
    from _pytest.config import _prepareconfig
    from _pytest.main import Session

    class Recorder:
        def pytest_runtest_makereport(self, item, call):
            if call.excinfo is not None:
                ctx.excinfo[call.when] = call.excinfo.value

    config = PREPARED
    session = None
    if config is not None:
        # Configured in the server; the conftest files, which may import
        # the target, load here, with the candidate in place.
        from pathlib import Path

        pm = config.pluginmanager
        pm._noconftest = False
        pm._try_load_conftest(Path(TEST_FILE), config.getoption("importmode"), config.rootpath)
        pm.register(Recorder())
        session = PREPARED_SESSION
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
        msg = "collecting %s: %s" % (r.nodeid or os.path.basename(TEST_FILE), last or (lines[-1] if lines else "error"))
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
        d = exc_detail(e, FILES)
        e.__traceback__ = None
        if when != "call":
            return RTE, b"", "error in %s: %s" % (when, d)
        if isinstance(e, MemoryError):
            Flags.memory = True
            return MLE, b"", "MemoryError"
        if isinstance(e, AssertionError) or isinstance(e, PYTEST.fail.Exception):
            return WRONG, b"", d
        return RTE, b"", d
    return PASSED, b"", None


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


class LenientPytestCtx(PytestCtx):
    """PytestCtx for lenient mode: the candidate as LenientCtx installs it."""

    def __init__(self, code, lx):
        PytestCtx.__init__(self, code)
        self.case_builtins = lx.case_builtins

    fresh = LenientCtx.fresh


def reset_empty_stdin():
    global EMPTY_STDIN
    EMPTY_STDIN = make_stdin("")


# ---- the forker ---------------------------------------------------------------------------


def forker(rfd, wfd, manager):
    """The loop of PID 1: one fork per request of the manager. Kept small:
    every page it writes is copied once more after each fork."""
    read, write, fork, waitpid, pack = os.read, os.write, os.fork, os.waitpid, MSG.pack
    while True:
        try:
            req = read(rfd, 1)
            if not req:
                os._exit(0)  # the manager is gone
            if req == b"W":
                wipe_workdir()
            pid = fork()
            if pid == 0:
                child_main()
            write(wfd, pack(b"p", pid))
            status = -1
            while True:
                try:
                    status = waitpid(pid, 0)[1]
                    break
                except InterruptedError:
                    continue
                except ChildProcessError:
                    break
            reap_leftovers(manager)
            write(wfd, pack(b"s", status))
        except BaseException:
            os._exit(3)


def wipe_workdir():
    """Empties the working directory (the private tmpfs) but for lib/
    before the first child of a candidate (everything the previous one
    started is gone by then): every candidate starts from the same empty
    directory (a file left by one candidate must not make another pass, a
    full tmpfs must not make it fail). Without namespaces lib/ is writable
    by its owner: it is put back as it was too."""
    try:
        if os.listdir(".") == ["lib"] and os.stat(".").st_mode & 0o7777 == 0o755:
            if PIDNS or lib_state() == LIB_STATE:
                return
    except OSError:
        pass
    try:
        os.chmod(".", 0o755)
        names = os.listdir(".")
    except OSError:
        return
    for name in names:
        if name != "lib":
            remove_tree(name)
    if not PIDNS and lib_state() != LIB_STATE:
        restore_lib()


def remove_tree(path):
    """Removes path, without following symbolic links, whatever the modes
    of its directories."""
    try:
        st = os.lstat(path)
    except OSError:
        return
    if stat_isdir(st.st_mode):
        try:
            os.chmod(path, 0o700)
            names = os.listdir(path)
        except OSError:
            names = []
        for name in names:
            remove_tree(os.path.join(path, name))
        try:
            os.rmdir(path)
        except OSError:
            pass
    else:
        try:
            os.unlink(path)
        except OSError:
            pass


def lib_walk():
    """lib/'s directories and files (paths relative to the working
    directory), parents first."""
    dirs, files = [], []
    stack = ["lib"]
    while stack:
        d = stack.pop()
        dirs.append(d)
        for name in sorted(os.listdir(d), reverse=True):
            p = os.path.join(d, name)
            if os.path.isdir(p) and not os.path.islink(p):
                stack.append(p)
            else:
                files.append(p)
    return dirs, files


def lib_state():
    """What lib/ holds: names, sizes, modification times and modes."""
    out = []
    try:
        dirs, files = lib_walk()
        for p in dirs + files:
            st = os.lstat(p)
            out.append((p, st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino))
    except OSError:
        return None
    return out


def restore_lib():
    """Puts lib/ back as the shim made it (without namespaces only)."""
    global LIB_STATE
    try:
        os.chmod("lib", 0o755)
    except OSError:
        pass
    remove_tree("lib")
    try:
        for d in LIB_DIRS:
            os.mkdir(d, 0o755)
        for p, data in LIB_FILES:
            fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
            try:
                os.write(fd, data)
            finally:
                os.close(fd)
        for d in reversed(LIB_DIRS):
            os.chmod(d, 0o555)
    except OSError:
        pass
    LIB_STATE = lib_state()


def reap_leftovers(manager):
    """Kills and reaps every child of the forker but the manager: whatever
    the candidate left running or exited ends up here, orphans being
    adopted by PID 1 (or by the forker as a child subreaper)."""
    for _ in range(10000):
        kids = children()
        if kids is None:
            return
        others = [k for k in kids if k != manager]
        if not others:
            return
        for k in others:
            try:
                os.kill(k, signal.SIGKILL)
            except OSError:
                pass
        for k in others:
            try:
                os.waitpid(k, 0)
            except OSError:
                pass


def children():
    """The forker's children, from /proc (CONFIG_PROC_CHILDREN), else from
    a scan of /proc/*/stat; None if /proc is unusable."""
    try:
        fd = os.open(CHILDREN_PATH, os.O_RDONLY)
        try:
            return [int(x) for x in os.read(fd, 1 << 16).split()]
        finally:
            os.close(fd)
    except OSError:
        pass
    me = os.getpid()
    kids = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name, "rb") as f:
                data = f.read()
            if int(data[data.rindex(b")") + 2 :].split()[1]) == me:
                kids.append(int(name))
        except (OSError, ValueError):
            pass
    return kids


# ---- the manager ---------------------------------------------------------------------------


CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid):
    """User plus system CPU seconds of process pid, or None.

    Read from the process's CPU-time clock (Linux: clockid ((~pid) << 3) | 2,
    CPUCLOCK_SCHED of the whole process, see clock_getcpuclockid(3)), which
    is exact; /proc/PID/stat counts in clock ticks (10 ms), too coarse for a
    cap of a few milliseconds."""
    try:
        return clock_gettime(((~pid) << 3) | 2)
    except (OSError, OverflowError, ValueError, AttributeError):
        pass
    try:
        fd = os.open("/proc/%d/stat" % pid, os.O_RDONLY)
        try:
            data = os.read(fd, 4096)
        finally:
            os.close(fd)
        fields = data[data.rindex(b")") + 2 :].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, ValueError, IndexError):
        return None


def death(how, status, c, cap):
    """The verdict and detail of a case during which the child ended; cap
    (if > 0) caps the case's timeout."""
    if how == "timeout":
        return TLE, "timed out after %gs" % (min(c.timeout, cap) if cap > 0 else c.timeout)
    if status < 0:
        return RTE, "lost the child process"
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU:
            return TLE, "CPU time limit exceeded"
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = str(sig)
        return RTE, "killed by signal %s" % name
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1
    if code == EXIT_MEMORY:
        return MLE, "MemoryError"
    return RTE, "exited with status %d" % code


class Manager:
    def __init__(self, to_forker, from_forker, go, done):
        self.to_forker = to_forker
        self.from_forker = from_forker
        self.go = go
        self.done = done
        self.poller = select.poll()
        self.poller.register(from_forker, select.POLLIN)
        self.poller.register(done, select.POLLIN)
        self.idle = 0  # pid of a child waiting for the next pure candidate
        self.job = 0
        self.reused = 0  # of the current candidate: chunks run in an idle child
        self.forks = 0  # of the current candidate: fresh children
        self.lx = None  # the lenient runtime, loaded at the first lenient candidate
        self.first_fork = True  # no fresh child of the running candidate yet
        self.lx_code = b""

    def forker_msg(self):
        b = b""
        while len(b) < MSG.size:
            x = os.read(self.from_forker, MSG.size - len(b))
            if not x:
                raise EOFError("the forker is gone")
            b += x
        return MSG.unpack(b)

    def retire(self):
        """Lets an idle child exit and waits until the forker reaped it."""
        if not self.idle:
            return
        self.idle = 0
        os.write(self.go, b"q")
        kind, _ = self.forker_msg()
        if kind != b"s":
            raise ValueError("forker protocol")

    def run_child(self, reuse):
        """Runs the job in SHM in the idle child (reuse) or a fresh one,
        enforcing the deadlines of its cases. Returns ("done", 0) when the
        child finished and waits for the next pure candidate, else ("exit"
        or "timeout", wait status) once the forker has reaped it and
        everything it left."""
        fork_time = monotonic()
        if reuse and self.idle:
            pid = self.idle
            self.idle = 0
            self.reused += 1
            os.write(self.go, b"g")
            how, status = self.supervise(pid, fork_time)
            if how != "exit" or HDR.unpack_from(SHM, 0)[3] != START[0] or CUR.unpack_from(SHM, 0)[0] != -1:
                return how, status
            # The idle child was gone before it started: use a fresh one.
            fork_time = monotonic()
        self.retire()
        self.forks += 1
        # The first fresh child of a candidate starts in an emptied
        # working directory (b"W"); its later children keep what the
        # candidate's earlier cases wrote there, as one process would.
        os.write(self.to_forker, b"W" if self.first_fork else b"F")
        self.first_fork = False
        kind, pid = self.forker_msg()
        if kind != b"p":
            raise ValueError("forker protocol")
        return self.supervise(pid, fork_time)

    def supervise(self, pid, fork_time):
        seen = None
        deadline = fork_time + SETUP_LIMIT
        hard = deadline  # the case's own timeout, when the search's cap binds
        capped = False
        cpu_obs = None
        last_ping = fork_time
        n = len(CASES)
        unpack = CUR.unpack_from
        how = "exit"
        killed = 0.0
        while True:
            if how == "exit":
                h = unpack(SHM, 0)
                if h != seen:
                    seen = h
                    cur, t0 = h
                    capped = False
                    if 0 <= cur < n and t0 < fork_time:
                        # A torn read: the child, preempted while writing
                        # the header, has written the case but not yet its
                        # start (still the reset value). Look again soon.
                        seen = None
                        deadline = monotonic() + 0.001
                    elif 0 <= cur < n:
                        # The child writes the header: a start in the
                        # future would put the deadline off.
                        t0 = min(t0, monotonic())
                        t = CASES[cur].timeout
                        hard = deadline = t0 + t
                        if 0 < self.cap < t:
                            deadline = t0 + self.cap
                            capped = True
                            cpu_obs = cpu_seconds(pid)
                    else:
                        deadline = fork_time + SETUP_LIMIT
            now = monotonic()
            if how == "exit" and now >= deadline:
                if unpack(SHM, 0) != seen:
                    continue  # read while the child was writing
                if capped and now < hard:
                    # The search's cap counts CPU time: a child the machine
                    # starved gets the time it did not have (up to the
                    # case's own timeout). Only CPU time the manager saw
                    # being used counts: a case first seen late (the
                    # manager was starved too) gets up to one more cap.
                    cpu = cpu_seconds(pid)
                    if cpu is not None and cpu_obs is not None:
                        used = cpu - cpu_obs
                        if used < 0.8 * self.cap:
                            deadline = min(hard, now + self.cap - used)
                            continue
                for f in (os.killpg, os.kill):
                    try:
                        f(pid, signal.SIGKILL)
                    except OSError:
                        pass
                how = "timeout"
                killed = now
                continue
            if how == "timeout" and now - killed > FORKER_WAIT:
                # The forker reaps a killed child at once, unless it was
                # stopped (without a PID namespace a candidate can stop
                # it): give up on this server.
                raise EOFError("the forker did not reap a killed child in %gs" % FORKER_WAIT)
            wait = HEARTBEAT if how == "timeout" else min(deadline - now, LOOK)
            if self.cap > 0 and how == "exit":
                # Look at the running case often enough to hold the cap.
                wait = min(wait, self.cap / 2)
            ready = self.poller.poll(int(wait * 1000) + 1)
            for fd, _ in ready:
                if fd == self.from_forker:
                    kind, status = self.forker_msg()
                    if kind != b"s":
                        raise ValueError("forker protocol")
                    return how, status
            for fd, _ in ready:
                if fd == self.done and os.read(self.done, 1) == b"d" and how == "exit":
                    self.idle = pid
                    return "done", 0
            if now - last_ping >= HEARTBEAT:
                send(b"P")
                last_ping = now

    def evaluate(self, src, cov, plan=None, first=0, end=None):
        """Runs cases first..end-1 (end None: to the last) of candidate
        src, sending their records."""
        try:
            if MULTI:
                code = compile_joined(src)
                plan = None  # lenient runs take one file
            else:
                code = compile(src, CAND_FILE, "exec", dont_inherit=True)
        except BaseException as e:  # SyntaxError, ValueError (NUL bytes), RecursionError, MemoryError...
            if isinstance(e, SyntaxError):
                msg = "%s: %s" % (type(e).__name__, e.msg)
                if e.lineno:
                    msg += " (line %d)" % e.lineno
                    if MULTI and e.filename and e.filename != CAND_FILE:
                        msg = msg[:-1] + " of %s)" % os.path.basename(e.filename)
            else:
                msg = "%s: %s" % (type(e).__name__, e)
            e.__traceback__ = None
            send(b"E", msg.encode("utf-8", "replace")[:2000])
            return
        lx = None
        if plan is not None:
            code, lx = self.lenient(src, code, plan)
        blob = marshal.dumps(code)
        n = len(CASES) if end is None else min(end, len(CASES))
        L = src.count(b"\n") + 2 if cov else 0
        end = CODE_OFF + len(blob)
        lx_off = 0
        if lx is not None:
            lx_off = (end + 7) & ~7
            end = lx_off + len(lx)
        covoff = (end + 7) & ~7
        recbase = (covoff + L + 7) & ~7
        maxrec = REC.size + 2 + DETAIL_MAX + 4 + 4 * L + PROGRESS.size
        cap = SHM_SIZE
        # Room for one record with the largest observation (a value and
        # the arguments, or an output), and a few small ones.
        if recbase + 2 * VALUE_MAX + 64 + 4 * (maxrec + (INJ_MAX if lx is not None else 0)) > cap:
            send(b"E", b"the candidate is too large for the sandbox")
            return
        reuse, mask = pure_code(code) if REUSE and not cov and lx is None else (0, 0)
        self.first_fork = True
        SHM[CODE_OFF : CODE_OFF + len(blob)] = blob
        if lx is not None:
            SHM[lx_off:end] = lx
        self.job += 1
        JOB.pack_into(SHM, 32, len(blob), L, covoff, recbase, cap, reuse, self.job, lx_off, mask, n)
        start = first
        while start < n:
            START[0] = start
            HDR.pack_into(SHM, 0, -1, 0.0, recbase, start)
            if cov:
                SHM[covoff : covoff + L] = bytes(L)
            how, status = self.run_child(reuse)
            _, _, used, nxt = HDR.unpack_from(SHM, 0)
            cur, t0 = CUR.unpack_from(SHM, 0)
            if not (recbase <= used <= cap and start <= nxt <= n):
                used, nxt = recbase, start  # the header is garbage: trust nothing
            if how != "done" and nxt < n and (how == "timeout" or cur == nxt or nxt == start):
                if used > cap - maxrec:
                    used, nxt = recbase, start
                verdict, detail = death(how, status, CASES[nxt], self.cap)
                secs = monotonic() - t0 if cur == nxt else 0.0
                if not 0 <= secs < 1e6:
                    secs = 0.0
                covmv = memoryview(SHM)[covoff : covoff + L] if cov else None
                used = put_record(SHM, used, nxt, verdict, secs, b"", detail, covmv)
                nxt += 1
            send(b"C", memoryview(SHM)[recbase:used])
            start = nxt
            if how == "timeout" and self.abandon and start < n:
                # The search's shortcut: a candidate that timed out once is
                # not run further; its other cases count as timed out too.
                detail = "not run: an earlier case timed out"
                used = recbase
                for i in range(start, n):
                    if used > cap - maxrec:
                        send(b"C", memoryview(SHM)[recbase:used])
                        used = recbase
                    used = put_record(SHM, used, i, TLE, 0.0, b"", detail, None)
                send(b"C", memoryview(SHM)[recbase:used])
                break

    def lenient(self, src, code, plan):
        """The candidate instrumented for lenient mode (lenient.py), and
        what a child needs to run it: the runtime's marshalled code and the
        plan, each after its u32 length."""
        if self.lx is None:
            rt = compile(LENIENT_SOURCE, "<repair-lenient>", "exec", dont_inherit=True)
            self.lx = ModuleType("repair_lenient")
            exec(rt, self.lx.__dict__)
            self.lx_code = marshal.dumps(rt)
        try:
            code = self.lx.instrument(src, CAND_FILE)
        except Exception:
            pass  # attribute reads stay as they are; names and imports are still lenient
        return code, b"".join((U32.pack(len(self.lx_code)), self.lx_code, U32.pack(len(plan)), plan))

    def serve(self):
        gc.enable()
        send(b"H", json.dumps({"version": "%d.%d.%d" % sys.version_info[:3], "pid_ns": PIDNS, "undumpable": UNDUMPABLE}).encode())
        while True:
            try:
                kind, payload = read_msg()
            except EOFError:
                return
            if kind == b"R":
                # A flags byte, the cap of every case's timeout (seconds, a
                # double; 0: the suite's timeouts), then the source.
                # Flags: 1 coverage, 2 abandon after a timeout, 4 lenient
                # (the source is preceded by the plan, after its u32
                # length), 8 a case range (the first case and the end
                # after the cap, two u32s).
                self.reused = self.forks = 0
                flags = payload[0]
                (self.cap,) = CAP.unpack_from(payload, 1)
                self.abandon = bool(flags & 2)
                off = 1 + CAP.size
                first, end = 0, None
                if flags & 8:
                    first, end = RANGE.unpack_from(payload, off)
                    off += RANGE.size
                plan = None
                if flags & 4:
                    (k,) = U32.unpack_from(payload, off)
                    plan = payload[off + 4 : off + 4 + k]
                    off += 4 + k
                self.evaluate(payload[off:], bool(flags & 1), plan, first, end)
                send(b"D", struct.pack("<III", self.reused, self.forks, 1 if self.idle else 0))
            elif kind == b"Q":
                return
            else:
                raise ValueError("unknown request %r" % kind)


# ---- start ----------------------------------------------------------------------------------


def setup(cfg):
    global CASES, MODULE, CAND_FILE, LIB_PREFIX, MEMORY_MB, OUTPUT_CAP, FILES, CPU_LIMITS
    global TEST_MODULE, TEST_FILE, TEST_CODE, PYTEST, EMPTY_STDIN, RECURSION_LIMIT, ASSERTS
    global BASE_MODULES, PATH0, LENIENT_SOURCE, LOOK
    CASES = tuple(load_case(c) for c in cfg["cases"])
    # The manager looks at a running child at least twice per shortest
    # timeout: it learns that a case started only by looking.
    LOOK = min([HEARTBEAT] + [c.timeout / 2 for c in CASES if c.timeout > 0])
    LENIENT_SOURCE = cfg.get("lenient_runtime") or ""
    # RLIMIT_CPU of a child that starts at case i: a backstop only, the
    # manager enforces each case's deadline.
    limits = []
    total = 2.0
    for c in reversed(CASES):
        total += c.timeout
        limits.append(int(total) + 1)
    CPU_LIMITS = tuple(reversed(limits))
    MODULE = cfg["module"]
    cwd = os.getcwd()
    lib = os.path.join(cwd, "lib")
    LIB_PREFIX = lib + os.sep
    global PACKAGE, IMPORT_ROOT
    proj = cfg.get("project")
    PACKAGE = MODULE.rpartition(".")[0] if proj else ""
    IMPORT_ROOT = lib
    if proj and proj.get("import_root"):
        IMPORT_ROOT = os.path.join(lib, proj["import_root"])
    CAND_FILE = os.path.join(IMPORT_ROOT, *MODULE.split(".")) + ".py"
    global MULTI
    MULTI = tuple(
        (m["name"], os.path.join(IMPORT_ROOT, *m["name"].split(".")) + ".py") for m in cfg.get("modules") or ()
    )
    if len(MULTI) < 2:
        MULTI = ()
    MEMORY_MB = int(cfg.get("memory_mb") or 512)
    OUTPUT_CAP = int(cfg.get("output_cap") or 65536)
    files = {CAND_FILE} | {f for _, f in MULTI}
    TEST_MODULE = cfg.get("test_module") or ""
    TEST_CODE = None
    PYTEST = None
    if TEST_MODULE:
        TEST_FILE = os.path.join(lib, cfg.get("test_file") or TEST_MODULE + ".py")
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
    global LIB_FILES, LIB_DIRS, LIB_STATE
    LIB_FILES, LIB_DIRS = [], []
    try:
        LIB_DIRS, names = lib_walk()
        for p in names:
            with open(p, "rb") as f:
                LIB_FILES.append((p, f.read()))
    except OSError:
        pass
    LIB_FILES, LIB_DIRS = tuple(LIB_FILES), tuple(LIB_DIRS)
    LIB_STATE = lib_state()
    global ALL_CALLS
    ALL_CALLS = all(c.kind == CALL and c.stdin is None for c in CASES)
    EMPTY_STDIN = make_stdin("")
    RECURSION_LIMIT = sys.getrecursionlimit()
    # The sandbox's private directory: helper modules in lib/ first, then
    # the standard library and site-packages (without running site.py).
    path = [p for p in sys.path if p and p != cwd]
    site = os.path.join(sys.prefix, "lib", "python%d.%d" % sys.version_info[:2], "site-packages")
    sys.path[:] = [lib] + path + ([site] if os.path.isdir(site) else [])
    if PACKAGE or MULTI:
        # The target's package imports from its import root (a src/
        # layout), as an installed or editable package would; the target
        # itself is the candidate whoever imports it (CandidateFinder).
        if IMPORT_ROOT != lib:
            sys.path.insert(0, IMPORT_ROOT)
        sys.meta_path.insert(0, CandidateFinder)
    global PYTEST_MODE, COLLECT
    pt = cfg.get("pytest")
    if TEST_MODULE and pt:
        # The real pytest, from where the interpreter has it (Go found it
        # with site.py, which -S skipped here), without plugins that
        # setuptools entry points would load.
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
        PYTEST = pytest
        PYTEST_MODE = True
        global PREPARED, PREPARED_SESSION
        speed_up_pytest()
        if not pt.get("per_child"):
            PREPARED = prepare_pytest()
            if PREPARED is not None:
                PREPARED_SESSION = prepare_session(PREPARED)
        COLLECT = bool(pt.get("collect"))
    PATH0 = tuple(sys.path)
    import warnings

    warnings.simplefilter("ignore")  # compile() of candidates must not print
    global REUSE, STATIC_CHECK
    REUSE = bool(cfg.get("reuse", True))
    # Tests switch the static check off to see the guard (make_guard)
    # catch what a pure candidate changed.
    STATIC_CHECK = bool(cfg.get("static_check", True))
    preload = set()
    try:
        preload = imported_names(compile(cfg.get("original") or "", CAND_FILE, "exec", dont_inherit=True))
    except BaseException:
        pass
    take_snapshots(preload)
    global TEST_MASK
    TEST_MASK = 0
    if TEST_CODE is not None:
        purity, TEST_MASK = pure_code(TEST_CODE, ("pytest", MODULE))
        if not purity or PYTEST_MODE:
            REUSE = False
    if PACKAGE or MULTI:
        REUSE = False
    BASE_MODULES = set(modules)


def make_undumpable():
    """prctl(PR_SET_DUMPABLE, 0) for the forker, and so for the manager
    and every child forked after it: a process of the same user without
    capabilities cannot open their /proc/PID/mem then, so a candidate
    cannot write into the forker (which every later candidate is forked
    from) or the manager (which keeps the deadlines). With namespaces /proc
    is read-only besides. Whether it worked."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0) == 0
    except Exception:
        return False


def main():
    global PIDNS, SHM, CHILDREN_PATH, _thread_count
    import _thread

    _thread_count = _thread._count
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    PIDNS = os.getpid() == 1
    CHILDREN_PATH = "/proc/self/task/%d/children" % os.getpid()
    # The candidate's environment is empty (the interpreter was started
    # with PYTHONHASHSEED only, for reproducible str hashes).
    for k in list(os.environ):
        del os.environ[k]
    global UNDUMPABLE
    UNDUMPABLE = make_undumpable()
    kind, payload = read_msg()
    if kind != b"S":
        raise ValueError("expected the suite first")
    cfg = json.loads(payload)
    setup(cfg)
    del payload
    if COLLECT:
        send(b"L", json.dumps(collect_items(cfg.get("original") or "")).encode())
        os._exit(0)
    del cfg
    SHM = mmap.mmap(-1, SHM_SIZE)
    to_forker_r, to_forker_w = os.pipe()
    from_forker_r, from_forker_w = os.pipe()
    global GO_R, DONE_W
    GO_R, go_w = os.pipe()  # manager to a reused child: b"g" next job, b"q" exit
    done_r, DONE_W = os.pipe()  # reused child to manager: b"d" finished
    make_guard()
    gc.collect()
    gc.freeze()  # the children's collections skip (and do not copy) all of this
    manager = os.fork()
    if manager == 0:
        os.close(to_forker_r)
        os.close(from_forker_w)
        os.close(GO_R)
        os.close(DONE_W)
        try:
            Manager(to_forker_w, from_forker_r, go_w, done_r).serve()
        except BaseException as e:
            try:
                send(b"X", ("%s: %s" % (type(e).__name__, e)).encode("utf-8", "replace"))
            except BaseException:
                pass
            os._exit(3)
        os._exit(0)
    os.close(to_forker_w)
    os.close(from_forker_r)
    os.close(go_w)
    os.close(done_r)
    os.close(IN_FD)
    os.close(OUT_FD)
    os.register_at_fork(after_in_child=_after_fork_child, after_in_parent=_after_fork_parent)
    forker(to_forker_r, from_forker_w, manager)


if __name__ == "__main__":
    try:
        main()
    except BaseException as e:
        try:
            send(b"X", ("%s: %s" % (type(e).__name__, e)).encode("utf-8", "replace"))
        except BaseException:
            pass
        raise
