# The fork server of the repair cpython engine: the bootstrap that a
# one-line loader in the command line reads from file descriptor 5 and
# runs in __main__,
#
#     python -s -S -B -c 'exec(compile(<fd 5>.read(), ...))' IN_FD OUT_FD
#
# under the sandbox shim (so that ps shows one line, not this file). It reads the harness, the other files of this
# directory, from IN_FD: message M, a u32 length and the code that Go kept
# from an earlier server of this interpreter, then each module's name and
# source, each followed by a NUL byte. It runs that code when it is this
# interpreter's (its first 4 bytes are sys.hexversion), else compiles the
# sources (as "<repair-harness/NAME.py>"); it answers K with the code it
# compiled (Go keeps it for the next server), or with nothing. Then it
# imports the modules from memory as the package repair_harness (each
# module's __name__ is "__main__", as the one-file harness's was), runs
# main.py as __main__ and calls its run. It writes no file, and once
# main.py is loaded the package, its modules and its finder are gone from
# sys.modules and sys.meta_path: nothing of the harness is importable.
import gc
import sys

gc.disable()


def _boot():
    import marshal
    import os

    rfd, wfd = int(sys.argv[1]), int(sys.argv[2])

    def read(n):
        buf = bytearray()
        while len(buf) < n:
            b = os.read(rfd, n - len(buf))
            if not b:
                raise EOFError("no harness")
            buf += b
        return bytes(buf)

    body = read(int.from_bytes(read(4), "little"))
    if body[:1] != b"M":
        raise ValueError("expected the harness first")
    n = int.from_bytes(body[1:5], "little")
    kept, parts = body[5 : 5 + n], body[5 + n :].split(b"\0")
    names = [p.decode() for p in parts[0:-1:2]]
    tag = sys.hexversion.to_bytes(4, "little")
    codes = None
    if kept[:4] == tag:
        try:
            codes = dict(marshal.loads(kept[4:]))
        except Exception:
            codes = None
        if codes is not None and sorted(codes) != sorted(names):
            codes = None
    reply = b""
    if codes is None:
        codes = {}
        for name, src in zip(names, parts[1::2]):
            codes[name] = compile(src, "<repair-harness/%s.py>" % name, "exec", dont_inherit=True)
        reply = tag + marshal.dumps(tuple(codes.items()))
    view = memoryview((len(reply) + 1).to_bytes(4, "little") + b"K" + reply)
    while view:
        view = view[os.write(wfd, view) :]
    del body, kept, parts, reply, view

    pkg = "repair_harness"
    spec = type(sys.__spec__)

    class Finder:
        """Imports the harness's modules from codes."""

        @staticmethod
        def find_spec(name, path=None, target=None):
            short = name[len(pkg) + 1 :]
            if name[: len(pkg) + 1] == pkg + "." and short in codes and short != "main":
                return spec(name, Finder)
            return None

        @staticmethod
        def create_module(s):
            return None

        @staticmethod
        def exec_module(m):
            name = m.__name__
            # Named __main__, as the one-file harness was: what a module
            # defines says __module__ == "__main__" (in reprs, in details,
            # to lenient.py and to the guard), as it always did.
            m.__name__ = "__main__"
            exec(codes[name[len(pkg) + 1 :]], m.__dict__)

    top = type(sys)(pkg)
    top.__path__ = []
    sys.modules[pkg] = top
    sys.meta_path.insert(0, Finder)
    g = sys.modules["__main__"].__dict__
    g["__package__"] = pkg
    try:
        exec(codes["main"], g)
    finally:
        g["__package__"] = None
        sys.meta_path.remove(Finder)
        harness = [sys.modules.pop(k) for k in list(sys.modules) if k[: len(pkg) + 1] == pkg + "."]
        del sys.modules[pkg]
        codes.clear()
    return tuple(harness) + (sys.modules["__main__"],)


_harness = _boot()
del _boot
run(_harness)  # noqa: F821 -- main.py's
