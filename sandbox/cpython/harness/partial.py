"""Partial re-execution: a candidate whose edits lie inside top-level
definitions is compiled one definition at a time, over the original's
code, and test selection's check that the edits change no scope.

The server compiles the original once, or loads the code an earlier
server compiled (main.original_code), and keeps it (configure, in the
forker, so that every child inherits BASE_CODE). For a candidate, Go sends the byte spans
of the top-level definitions it changes, in the candidate and in the
original (program.Change); build checks that the candidate equals the
original outside them, compiles each changed definition alone at its
line (with the original's __future__ flags), checks that what the module
body does with it is the same bytecode as for the original definition
(the same decorators, defaults, annotations and bases), and puts the new
code objects in the place of the old ones among the module code's
constants. The module's code is then what compiling the whole candidate
gives, but for the line numbers of what follows a definition whose line
count changed (its tracebacks name the original's lines); the final
validation of a fix comes here only when no line count changed (Go's
program.Change.KeepsLines), so that its code is exactly the whole
candidate's.

Owns BASE_SRC, BASE_CODE, FUTURE, the cache of the original's
definitions (_BASE_DEFS) and of the purity of its parts (_PURE), and
SELECT_OK (whether test selection can be sound for this suite); and the
form in which Go keeps the original's code for the servers that start
after the first (original_tag, load_original).
"""
import marshal
import sys

from . import purity
from .purity import CodeType, pure_code

BASE_SRC = b""  # the original's source, as Go's candidates share it
BASE_CODE = None  # its module code (None: no partial re-execution)
FUTURE = 0  # the compiler flags of its __future__ imports
CAND_FILE = ""
SELECT_OK = False  # test selection can be sound: set by configure
SELECT_POSSIBLE = False  # the original is pure and the interpreter 3.10 or later (under pytest, real_pytest.isolated decides)
BASE_PURE = False  # the original is pure with the static check (purity.py)
BASE_LEVEL = 0  # its pure_code level with the static check (0: not pure), for its coverage run
SWAP_OK = False  # its module body calls nothing: a child may keep its import for candidates (kept_original)
_BASE_DEFS = {}  # (start, end) of an original definition -> its snippet's module code
_PURE = {}  # (checked, deny, imports) -> the purity of the original's parts (_base_purity)
_BASE_WHOLE = {}  # (checked, deny, imports) -> pure_code of the original whole, from its parts (pure_base)
_INDEX = {}  # (co_name, co_firstlineno) of a constant of BASE_CODE -> its index

_CODING = rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)"  # PEP 263

ORIGINAL_SCHEME = 1  # the version of original_tag's scheme


def original_tag():
    """What the original's code Go keeps (MSG_ORIGINAL: this tag, then the
    code marshalled) starts with: the scheme's version and what else
    decides what compile makes of a source, but its file name: the
    interpreter's version, its bytecode's magic number, its optimization
    level. One line."""
    ext = sys.modules.get("_frozen_importlib_external")
    magic = getattr(ext, "MAGIC_NUMBER", b"")
    return b"repair-original %d %x %s %d\n" % (ORIGINAL_SCHEME, sys.hexversion, magic.hex().encode(), sys.flags.optimize)


def load_original(kept, cand_file):
    """The original's code from kept (what an earlier server sent Go:
    original_tag and the code compiled from the same source), given the
    file name cand_file, or None when kept is not this interpreter's code:
    the caller compiles the source then."""
    tag = original_tag()
    if not kept.startswith(tag):
        return None
    try:
        code = marshal.loads(memoryview(kept)[len(tag):])
        if type(code) is not CodeType:
            return None
        return _renamed(code, cand_file)
    except Exception:  # ValueError, EOFError, TypeError, RecursionError: not code
        return None


def _renamed(code, name):
    """code, and every code object in it, with the file name name: what
    compiling its source as name gives. (The file name is the server's
    private directory's, which differs from one server to the next.)"""
    code = _nested(code, lambda k: _renamed(k, name))
    return code if code.co_filename == name else code.replace(co_filename=name)


def _nested(code, f):
    """code with f of each code object among its constants (code itself
    when it has none)."""
    consts = code.co_consts
    new = None
    for i, k in enumerate(consts):
        if type(k) is CodeType:
            if new is None:
                new = list(consts)
            new[i] = f(k)
    return code if new is None else code.replace(co_consts=tuple(new))


def configure(original, code, cand_file, enabled, select, keep_parts=True):
    """Keeps the original (its text: the suite's; code: compiled, or None)
    when partial re-execution is enabled, and says whether test selection
    may apply (select: the suite's cases are independent when the code is
    pure; the interpreter reports every statement it runs, PEP 626, from
    3.10). The original's purity with the static check is found part by
    part, and with keep_parts (not under pytest, whose collection loads
    more modules later) the parts' purity is kept for the candidates and
    the runs of the original (pure, pure_base): on a large module each
    walk of its code is milliseconds, which the server's start pays once
    instead of the search."""
    global BASE_SRC, BASE_CODE, FUTURE, CAND_FILE, SELECT_OK, BASE_PURE, BASE_LEVEL
    CAND_FILE = cand_file
    if not enabled or not original or code is None:
        return
    src = original.encode("utf-8")
    for line in src.split(b"\n", 2)[:2]:
        if b"coding" not in line:
            continue
        import re  # only then: a server imports only what it needs

        m = re.match(_CODING, line)
        if m and m.group(1).lower().replace(b"_", b"-") not in (b"utf-8", b"utf8"):
            return  # a snippet alone would be read as UTF-8
    if b"\r" in src.replace(b"\r\n", b""):
        return  # line counts by \n would be wrong
    import __future__

    mask = 0
    for name in __future__.all_feature_names:
        mask |= getattr(__future__, name).compiler_flag
    BASE_SRC, BASE_CODE, FUTURE = src, code, code.co_flags & mask
    for i, k in enumerate(code.co_consts):
        if type(k) is CodeType:
            key = (k.co_name, k.co_firstlineno)
            _INDEX[key] = -1 if key in _INDEX else i  # -1: ambiguous
    parts = _base_purity(True)
    BASE_LEVEL = _combine(parts, {})[0]
    global SWAP_OK
    SWAP_OK = _calls_nothing(code)
    if keep_parts:
        _PURE[_key(True, None, None)] = parts
    BASE_PURE = BASE_LEVEL != 0
    global SELECT_POSSIBLE
    SELECT_POSSIBLE = BASE_PURE and sys.version_info >= (3, 10)
    SELECT_OK = select and SELECT_POSSIBLE


class Partial:
    """A candidate compiled definition by definition: its module code,
    the constants replaced (index, code), whether its edits keep every
    scope as it was (test selection's condition), the module code of
    each changed definition compiled alone (defs: by span), and whether
    every changed definition is a function (functions: where its scopes
    change, only the calls of those functions run differently; a class
    body runs at import)."""

    __slots__ = ("code", "repl", "same_scopes", "defs", "functions")

    def __init__(self, code, repl, same_scopes, defs=(), functions=False):
        self.code, self.repl, self.same_scopes, self.defs = code, repl, same_scopes, defs
        self.functions = functions


def rebuild(text, spans):
    """The candidate source whose changed definitions ((cand start, cand
    end, base start, base end), in order) have the text text, one after
    the other, and which is the original elsewhere (MSG_DELTA). Raises
    ValueError when they do not fit the original."""
    base = BASE_SRC
    if not spans and not text:
        return base  # the original itself
    parts = []
    pb = pt = 0
    for cs, ce, bs, be in spans:
        if not pb <= bs <= be <= len(base) or ce < cs or ce - cs > len(text) - pt:
            raise ValueError("a changed definition outside the original")
        parts.append(base[pb:bs])
        parts.append(text[pt : pt + ce - cs])
        pb, pt = be, pt + ce - cs
    if pt != len(text):
        raise ValueError("more text than the changed definitions")
    parts.append(base[pb:])
    return b"".join(parts)


def build(src, spans):
    """The Partial of candidate src, whose changed definitions are spans
    ((cand start, cand end, base start, base end), in order), or None when
    it must be compiled whole: it differs from the original elsewhere, a
    definition does not compile alone (its own error is then the whole
    candidate's), or the module body would run other code. Raises nothing."""
    if BASE_CODE is None or not spans:
        return None
    try:
        return _build(src, spans)
    except BaseException:
        return None


def _build(src, spans):
    base = BASE_SRC
    pc = pb = 0
    for cs, ce, bs, be in spans:
        if cs < pc or bs < pb or ce < cs or be < bs or be > len(base) or ce > len(src):
            return None
        if bs - pb != cs - pc or src[pc:cs] != base[pb:bs]:
            return None
        pc, pb = ce, be
    if len(src) - pc != len(base) - pb or src[pc:] != base[pb:]:
        return None
    consts = list(BASE_CODE.co_consts)
    repl, defs = [], []
    same = functions = True
    moved = 0  # lines the changed definitions before this one added
    for cs, ce, bs, be in spans:
        old, line = _base_def(bs, be)
        new = _compile_at(src[cs:ce], line + moved)
        moved += src.count(b"\n", cs, ce) - BASE_SRC.count(b"\n", bs, be)
        defs.append(new)
        if not _same_body(old, new):
            return None
        olds = [k for k in old.co_consts if type(k) is CodeType]
        news = [k for k in new.co_consts if type(k) is CodeType]
        if len(olds) != len(news):
            return None
        for o, n in zip(olds, news):
            i = _INDEX.get((o.co_name, o.co_firstlineno), -1)
            if i < 0:
                return None
            functions = functions and bool(o.co_flags & n.co_flags & _IMPORT_TIME)
            if same and not same_scopes(o, n):
                same = False
            consts[i] = n
            repl.append((i, n))
    return Partial(BASE_CODE.replace(co_consts=tuple(consts)), tuple(repl), same, tuple(defs), functions)


def _calls_nothing(code):
    """Whether module code's own instructions (not its functions') call
    nothing, build no class and enter no context: importing it runs none
    of the functions it defines, so that a candidate that changes only
    their code imports as the original does but for their __code__
    (child.kept_original)."""
    import opcode

    ops = {v for k, v in opcode.opmap.items()
           if k.startswith("CALL") or k in ("PRECALL", "LOAD_BUILD_CLASS", "BEFORE_WITH", "SETUP_WITH",
                                            "BEFORE_ASYNC_WITH", "SETUP_ASYNC_WITH", "GET_AWAITABLE")}
    return ops.isdisjoint(code.co_code[::2])


def swap_in(functions, repl):
    """Puts a candidate's code objects (repl: (index in the original's
    constants, code)) in the original's functions (functions: by index)
    when each replaces the code of a function there with one of the same
    name and the same first constant (its docstring: what the function's
    __doc__ was made from), so that the functions are what defining them
    with the candidate's code makes. Returns [(function, its code)] to
    put back, or None when any cannot be swapped (none is then)."""
    done = []
    try:
        for i, new in repl:
            f = functions.get(i)
            if f is None:
                break
            old = f.__code__
            if (new.co_name != old.co_name or getattr(new, "co_qualname", None) != getattr(old, "co_qualname", None)
                    or _first_const(new) != _first_const(old)):
                break
            f.__code__ = new  # ValueError when the free variables differ
            done.append((f, old))
        else:
            return done
    except ValueError:
        pass
    swap_out(done)
    return None


def swap_out(done):
    """Puts back the code objects swap_in replaced."""
    for f, old in done:
        f.__code__ = old


def _first_const(co):
    k = co.co_consts
    return (type(k[0]), k[0]) if k else None


def _base_def(bs, be):
    """The module code of the original's definition at bytes bs..be,
    compiled alone at its line, and that line's index (cached)."""
    key = (bs, be)
    got = _BASE_DEFS.get(key)
    if got is None:
        line = BASE_SRC.count(b"\n", 0, bs)
        got = _compile_at(BASE_SRC[bs:be], line), line
        if len(_BASE_DEFS) > 4096:
            _BASE_DEFS.clear()
        _BASE_DEFS[key] = got
    return got


def _compile_at(text, line):
    """The module code of a definition's text (the module's __future__
    flags) that starts at line index line of the module: the code objects
    it holds are those compiling the whole module makes, positions
    included. (The module code itself keeps its own lines: only its code
    objects go into the original's.) Compiled at line 1 and shifted: a
    prefix of line feeds cost the tokenizer more than the definition on a
    large module."""
    code = compile(text, CAND_FILE, "exec", FUTURE, dont_inherit=True)
    return _nested(code, lambda k: _shifted(k, line)) if line else code


def _shifted(code, n):
    """code, and every code object in it, n lines further down: its line
    table counts from its first line."""
    return _nested(code, lambda k: _shifted(k, n)).replace(co_firstlineno=code.co_firstlineno + n)


def _consts_key(co):
    """The constants of co but its code objects, by type and value."""
    return tuple((type(k), k) for k in co.co_consts if type(k) is not CodeType)


def _same_body(a, b):
    """Whether module codes a and b run the same code at module level
    (their code objects aside)."""
    return (a.co_code == b.co_code and a.co_names == b.co_names and a.co_varnames == b.co_varnames
            and a.co_flags == b.co_flags and _consts_key(a) == _consts_key(b))


def _qualified(co, prefix, out):
    """Every code object inside co, by its path of names, in order."""
    for k in co.co_consts:
        if type(k) is CodeType:
            key = prefix + "/" + k.co_name
            out.setdefault(key, []).append(k)
            _qualified(k, key, out)
    return out


def same_scopes(old, new):
    """Whether the code of a definition new (the candidate's) keeps every
    name's scope and every function's kind as in old (the original's), so
    that its statements that no edit touched run as before: the same
    parameters, flags (generator, coroutine), cell and free variables in
    every function present in both, and a local variable added or dropped
    only when no other code of the function reads that name as a global.
    Code that runs when the module is imported (class bodies) must be
    identical. Functions only one of them has (a lambda, a comprehension,
    a def inside an edited statement) run only where an edit put them."""
    if not _same_code(old, new, ""):
        return False
    olds, news = _qualified(old, "", {}), _qualified(new, "", {})
    for key, os_ in olds.items():
        ns = news.get(key)
        if ns is None:
            continue
        if len(os_) != len(ns):
            return False
        for o, n in zip(os_, ns):
            if not _same_code(o, n, key):
                return False
    return True


_IMPORT_TIME = 0x0002  # CO_NEWLOCALS: a function (class bodies do not have it)


def _same_code(o, n, key):
    if not o.co_flags & _IMPORT_TIME or not n.co_flags & _IMPORT_TIME:
        # A class body runs at import: it must be the same code.
        return (o.co_code == n.co_code and o.co_names == n.co_names and o.co_varnames == n.co_varnames
                and o.co_flags == n.co_flags and o.co_cellvars == n.co_cellvars and o.co_freevars == n.co_freevars
                and _consts_key(o) == _consts_key(n))
    if (o.co_argcount, o.co_posonlyargcount, o.co_kwonlyargcount, o.co_flags, o.co_cellvars, o.co_freevars) != (
            n.co_argcount, n.co_posonlyargcount, n.co_kwonlyargcount, n.co_flags, n.co_cellvars, n.co_freevars):
        return False
    nargs = o.co_argcount + o.co_kwonlyargcount + bool(o.co_flags & 0x04) + bool(o.co_flags & 0x08)
    if o.co_varnames[:nargs] != n.co_varnames[:nargs]:
        return False
    ov, nv = set(o.co_varnames), set(n.co_varnames)
    # A name that became local was a global (or builtin) before: no other
    # code of the original may read it so. One that is no longer local
    # must not be read as a global now.
    for name in nv - ov:
        if name in o.co_names:
            return False
    for name in ov - nv:
        if name in n.co_names:
            return False
    return True


def _key(checked, deny, imports):
    """The key of _PURE for pure_code's arguments (checked None is
    STATIC_CHECK's value)."""
    return (purity.STATIC_CHECK if checked is None else bool(checked)), id(deny), id(imports)


def _parts(checked, deny, imports):
    key = _key(checked, deny, imports)
    parts = _PURE.get(key)
    if parts is None:
        parts = _PURE[key] = _base_purity(checked, deny, imports)
    return parts


def pure(p, checked, deny=None, imports=None):
    """pure_code of a partial candidate p (with checked, deny, imports),
    from the purity of the original's parts (computed once) and of its new
    code objects."""
    parts = _parts(checked, deny, imports)
    changed = {}
    for i, k in p.repl:
        named = []
        r = pure_code(k, checked=checked, deny=deny, imports=imports, named=named)
        if r[0] == 0:
            return 0, 0
        changed[i] = (r[0], r[1], named[0])
    return _combine(parts, changed)


def pure_base(checked):
    """pure_code of the original whole (with checked), from its parts."""
    key = _key(checked, None, None)
    got = _BASE_WHOLE.get(key)
    if got is None:
        got = _BASE_WHOLE[key] = _combine(_parts(checked, None, None), {})
    return got


def _combine(parts, changed):
    """pure_code of the original with the parts changed ((level, mask,
    named) by index) in the place of its own."""
    bad, attrs, gstores, masks, named = parts
    for i in bad:
        if i not in changed:
            return 0, 0
    has_attrs = any(r[0] == 1 for r in changed.values()) or any(i not in changed for i in attrs)
    has_globals = any(r[0] == 2 for r in changed.values()) or any(i not in changed for i in gstores)
    mask = 0
    for i, m in masks:
        if i not in changed:
            mask |= m
    for r in changed.values():
        mask |= r[1]
    if mask and (any(r[2] for r in changed.values()) or any(i not in changed for i in named)):
        return 0, 0  # FORK_STRING: a part names a denied attribute, another reaches a pure module
    return (1 if has_attrs else 2 if has_globals else 3), mask


def warm(reuse):
    """Computes, while the server waits for Go, the purity of the
    original's parts that the first partial candidate would (pure with
    checked None when candidates may reuse a child, True when test
    selection may apply; configure found those with the static check):
    on a large module that is milliseconds."""
    if BASE_CODE is None:
        return
    for checked, wanted in ((None, reuse), (True, SELECT_OK)):
        if wanted:
            _parts(checked, None, None)


def _base_purity(checked, deny=None, imports=None):
    """The purity of the original's parts: the indexes of its constants
    (-1: the module body itself) that are not pure, those that store
    attributes, those that store no attribute but global names, those
    that reach pure modules (index, mask), and those with a string
    constant that names a denied attribute (pure_code's named)."""
    body = BASE_CODE.replace(co_consts=tuple(k for k in BASE_CODE.co_consts if type(k) is not CodeType))
    bad, attrs, gstores, masks, named = [], [], [], [], []
    for i, k in [(-1, body)] + [(i, k) for i, k in enumerate(BASE_CODE.co_consts) if type(k) is CodeType]:
        n = []
        r = pure_code(k, checked=checked, deny=deny, imports=imports, named=n)
        if r[0] == 0:
            bad.append(i)
            continue
        if r[0] == 1:
            attrs.append(i)
        elif r[0] == 2:
            gstores.append(i)
        if r[1]:
            masks.append((i, r[1]))
        if n[0]:
            named.append(i)
    return tuple(bad), frozenset(attrs), frozenset(gstores), tuple(masks), frozenset(named)


def assemble(repl):
    """In a child: the candidate's module code from the replacements."""
    consts = list(BASE_CODE.co_consts)
    for i, k in repl:
        consts[i] = k
    return BASE_CODE.replace(co_consts=tuple(consts))
