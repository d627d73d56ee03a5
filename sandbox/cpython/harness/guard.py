"""The guard: what a child that ran a pure candidate must have left
unchanged before it may serve the next one (purity.py says which
candidates are pure), and the flags of what happened in the process.

Owns Flags (set by the after-fork hooks main.py registers, and by a case
that ran out of memory) and LEFT_CLEAN, the check make_guard binds once
every module of the harness is set up.
"""
import gc
import os
import sys
from _thread import _count as _thread_count

from . import forker, purity

FunctionType = type(lambda: None)
modules = sys.modules

LEFT_CLEAN = None  # the guard (make_guard)


class Flags:
    copy = False  # this process is a fork made by candidate code
    forked = False  # candidate code forked during the case
    memory = False  # a case ran out of memory
    restart = False  # the case left the session unusable: the next runs in a fresh child
    ran_pytest = False  # pytest's runner or collection ran in this child: it serves no other candidate


def _after_fork_child():
    Flags.copy = True


def _after_fork_parent():
    Flags.forked = True


def make_guard(harness, base, pytest, test_mask, workdir=""):
    """Sets LEFT_CLEAN, the check run after a pure candidate, in its child,
    before that child may serve another one: a closure over what it
    compares, so that rebinding a global of the harness cannot switch it
    off. harness are the harness's modules (__main__ among them), base the
    modules a case leaves loaded (child.BASE_MODULES), pytest the test
    file's pytest stand-in (or None), test_mask the pure modules the test
    file reaches, workdir the project's tree the tests run in (or "").
    Call it once the harness's globals are all set (main)."""
    global LEFT_CLEAN
    mods = modules
    flags, thread_count, collect, garbage = Flags, _thread_count, gc.collect, gc.garbage
    gettrace, getprofile, listdir, getcwd = sys.gettrace, sys.getprofile, os.listdir, os.getcwd
    cwd = getcwd()  # the private directory, where the working directories are
    home = workdir or cwd  # where a child runs the tests (child_main)
    listing, work_clean, sort = list(forker.LISTING), forker.clean_work_dirs, sorted
    dicts = copies = funcs = codes = ()
    groups = purity.GROUPS
    import operator

    code_of = operator.attrgetter("__code__", "__defaults__", "__kwdefaults__")
    ne = operator.ne

    def left_clean(mods0, base0, mask):
        """Whether the process is as a pure candidate must have left it:
        no fork, thread, MemoryError or uncollectable garbage; the same
        modules; builtins, the pure modules it could reach (mask), the
        pytest stand-in and the harness's globals, classes and functions
        unchanged; no tracer; the working directory where a child starts,
        and the private directory as empty as it was."""
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
            return getcwd() == home and sort(listdir(cwd)) == listing and work_clean(cwd)
        except OSError:
            return False

    LEFT_CLEAN = left_clean
    hdicts = [m.__dict__ for m in harness]
    owners = {m.__name__ for m in harness} | {"pytest"}
    found, seen = [], set()

    def add_functions(d):
        for v in list(d.values()):
            if type(v) in (staticmethod, classmethod):
                v = v.__func__
            if type(v) is property:
                fs = (v.fget, v.fset, v.fdel)
            else:
                fs = (v,)
            for f in fs:
                if type(f) is FunctionType and id(f) not in seen:
                    seen.add(id(f))
                    found.append(f)

    # The modules import one another's functions and classes: each is
    # compared once.
    dicts = list(hdicts)
    if pytest is not None:
        dicts.append(pytest.__dict__)
    classes = []
    for d in list(dicts):
        for v in list(d.values()):
            if isinstance(v, type) and v.__module__ in owners and id(v) not in seen:
                seen.add(id(v))
                classes.append((v.__dict__, dict(v.__dict__)))
                dicts.append(v.__dict__)
    for d in dicts:
        add_functions(d)
    snaps = purity.BUILTINS_GROUP + classes + [(d, dict(d)) for d in hdicts]
    dicts = tuple(d for d, _ in snaps)
    copies = tuple(c for _, c in snaps)
    funcs = tuple(found)
    codes = list(map(code_of, funcs))
