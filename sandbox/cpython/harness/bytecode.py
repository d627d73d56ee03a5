"""The project's bytecode, compiled once per server.

Every case imports the project's modules afresh (child.prune_modules
forgets them), and Python compiled each from source every time: the
interpreter runs with -B and the sandbox cannot write __pycache__. On a
package of hundreds of modules that was most of a case. Instead a path
hook gives the project's directories (under candidate.LIB_PREFIX) a
FileFinder whose source loader keeps the code it compiled, by file, in
CODE; the server fills CODE before it forks (precompile: the packages of
the targets; and whatever the server imports itself), and every child
forked from it finds the code there, in its own copy: what a candidate
does to its copy is gone with its child. Nothing is written anywhere.

A target's file (candidate.CAND_FILES) is never kept nor served from
CODE: CandidateFinder, first on sys.meta_path, gives the candidate's own
code, and this loader compiles one anyway if it is asked. A file whose
size or modification time changed since it was compiled is compiled
again.

Owns CODE, the path hook (install), the precompiling (precompile) and
whether what is compiled is kept (KEEPING: in the server only).
"""
import os
import sys
from importlib.machinery import (
    BYTECODE_SUFFIXES,
    EXTENSION_SUFFIXES,
    ExtensionFileLoader,
    FileFinder,
    SourcelessFileLoader,
)
from importlib.machinery import SourceFileLoader as _SourceFileLoader

CODE = {}  # a source file -> (st_mtime_ns, st_size, its module's code)
ROOTS = ()  # the directories the hook serves, each with a final separator
SKIP = frozenset()  # the files never kept (the targets)
KEEPING = True  # the server keeps what it compiles; a child, whose CODE the guard compares, does not (stop_keeping)
MAX_FILES = 20000  # files CODE keeps at most
MAX_SOURCE = 4 << 20  # bytes of a file precompile compiles at most


class SourceFileLoader(_SourceFileLoader):
    """importlib's loader of source files, which keeps the code it
    compiled (CODE) and finds it there the next time."""

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        if path in SKIP:
            return super().get_code(fullname)
        try:
            st = os.stat(path)
        except OSError:
            return super().get_code(fullname)
        got = CODE.get(path)
        if got is not None and got[0] == st.st_mtime_ns and got[1] == st.st_size:
            return got[2]
        code = super().get_code(fullname)
        if KEEPING and code is not None and len(CODE) < MAX_FILES:
            CODE[path] = (st.st_mtime_ns, st.st_size, code)
        return code


def stop_keeping():
    """CODE is what the children find: from now on (the server's last
    step before its guard's snapshots and the fork) nothing is added."""
    global KEEPING
    KEEPING = False


# A candidate that looks sees the loader it always saw.
SourceFileLoader.__module__ = _SourceFileLoader.__module__
SourceFileLoader.__qualname__ = _SourceFileLoader.__qualname__

_LOADERS = ((ExtensionFileLoader, EXTENSION_SUFFIXES), (SourceFileLoader, [".py"]),
            (SourcelessFileLoader, BYTECODE_SUFFIXES))


def _path_hook(path):
    """The finder of a directory of the project's (else ImportError: the
    next hook, the interpreter's own, takes it)."""
    if path and (path + os.sep).startswith(ROOTS) and os.path.isdir(path):
        return FileFinder(path, *_LOADERS)
    raise ImportError("not a directory of the project")


def install(roots, skip):
    """Serves the directories under roots (and they) with the keeping
    loader, never keeping the files of skip."""
    global ROOTS, SKIP
    ROOTS = tuple(os.path.join(os.path.normpath(r), "") for r in roots if r)
    SKIP = frozenset(skip)
    if not ROOTS:
        return
    sys.path_hooks.insert(0, _path_hook)
    cache = sys.path_importer_cache
    for p in list(cache):
        if isinstance(p, str) and (p + os.sep).startswith(ROOTS):
            del cache[p]


def package_dirs(targets):
    """The directories of the top packages of targets ((module, file)
    pairs): what precompile compiles. None for a module outside a
    package."""
    dirs = []
    for module, f in targets:
        up = module.count(".") - (0 if os.path.basename(f) == "__init__.py" else 1)
        if up < 0:
            continue
        d = os.path.dirname(f)
        for _ in range(up):
            d = os.path.dirname(d)
        if d not in dirs:
            dirs.append(d)
    return dirs


def precompile(dirs):
    """Compiles the source files under dirs (those install serves, not
    skipped) into CODE; returns how many. A file that does not compile is
    left to the import that reads it, which raises as it always did."""
    n = 0
    for top in dirs:
        if not os.path.join(top, "").startswith(ROOTS):
            continue
        for d, subdirs, files in os.walk(top):
            subdirs[:] = sorted(s for s in subdirs if not s.startswith(".") and s != "__pycache__")
            for name in sorted(files):
                path = os.path.join(d, name)
                if not name.endswith(".py") or path in SKIP or path in CODE or len(CODE) >= MAX_FILES:
                    continue
                try:
                    st = os.stat(path)
                    if st.st_size > MAX_SOURCE:
                        continue
                    with open(path, "rb") as f:
                        data = f.read()
                    code = compile(data, path, "exec", dont_inherit=True)
                except (OSError, SyntaxError, ValueError):
                    continue
                CODE[path] = (st.st_mtime_ns, st.st_size, code)
                n += 1
    return n
