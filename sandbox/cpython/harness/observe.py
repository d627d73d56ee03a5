"""What a case reports: the observation of a call or I/O case, and the
standard streams that capture its output.

The child never decides a call or I/O case's verdict, and never holds
what the case expects: it reports what the case did (the value returned,
the arguments after the call, the exception's class names, the output),
and Go judges that against the suite (fitness.Check.Judge) outside the
candidate's reach. A value is encoded by what it holds (see
fitness/value.go for the format): subclasses of the built-in types by
their base type's storage, never through the candidate's __len__,
__iter__ or __eq__; anything else is its repr, which equals nothing.

Owns OUTPUT_CAP, the characters of a case's output kept (configure), and
the encoding's tags; short_repr shortens values for details.
"""
import struct

from .protocol import MATERIALISE_MAX, MAX_DEPTH, U32, VALUE_MAX

OUTPUT_CAP = 65536  # characters of a case's stdout or stderr kept (configure)
REPR_MAX = 100  # characters of a value in a detail

I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1
TAG_I64 = struct.Struct("<cq")
TAG_F64 = struct.Struct("<cd")
TAG_LEN = struct.Struct("<cI")
RET_INT = struct.Struct("<cqB")  # a returned int, no arguments
NO_ARGS = b"\x00"
ENC_NONE, ENC_TRUE, ENC_FALSE = b"N", b"T", b"F"


def configure(output_cap):
    """Sets the output cap (the suite's output_cap)."""
    global OUTPUT_CAP
    OUTPUT_CAP = output_cap


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
        _opaque(no_address(short_repr(v)), out)


def no_address(r):
    """A repr without the addresses that object's default repr shows
    ("<m.C object at 0x7f...>"): two runs that made alike objects give
    equal values (the overfitting guard compares two programs so)."""
    i = r.find(" at 0x")
    while i >= 0:
        j = i + 6
        while j < len(r) and r[j] in "0123456789abcdefABCDEF":
            j += 1
        r = r[:i] + r[j:]
        i = r.find(" at 0x", i)
    return r


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
