"""Liveness while a server starts: the heartbeat.

Importing the target's package, pytest and its plugins, and collecting
the test file may take minutes of wall time on a busy machine, and Go
has no fixed bound for them: it waits as long as the server progresses
(docs/engines.md, "Liveness at start-up"). A heartbeat thread tells it:
every BEAT seconds, when the server progressed since the last ping (the
stage changed, a module was loaded, or the heap grew past its highest),
it sends MSG_PING with the stage. A server that sleeps, blocks or spins
in place sends none, and Go gives up after its window of silence,
naming the last stage. The thread runs only in the server's setup (and
in the children that collect for it): it is stopped before every fork,
since a forked child has no thread but the one that forked.

Owns the heartbeat thread, its period (BEAT: the suite's "heartbeat")
and the stage it names (STAGE, set with stage).
"""
import os
import sys
from _thread import _count as _thread_count, allocate_lock, stack_size, start_new_thread

from .protocol import MSG_PING, OUT_FD, U32
from .wire import send_lock

BEAT = [1.0]  # seconds between the heartbeat's looks (the suite's "heartbeat")
STAGE = ["starting"]  # what the server is doing (stage), the heartbeat reads it
_RUNNING = []  # the running heartbeat's stop and done locks and the thread count before it


M_ARENA_MAX = -8  # mallopt's parameter (glibc)
_MALLOPT = []  # glibc's mallopt, once looked up (none: not glibc)


def c_function(name):
    """The C library's function name, returning an int, or None (not
    found, or no ctypes). The C half of ctypes alone: the ctypes package
    (and struct, types) cost a server's boot about 3 ms."""
    try:
        import _ctypes

        class Lib:
            _handle = _ctypes.dlopen(None, os.RTLD_NOW)

        class Int(_ctypes._SimpleCData):
            _type_ = "i"

        class Func(_ctypes.CFuncPtr):
            _flags_ = _ctypes.FUNCFLAG_CDECL
            _restype_ = Int

        return Func((name, Lib()))
    except Exception:
        return None


def _arenas(n):
    """Bounds glibc's malloc arenas to n (0: its default). A thread's
    first allocation would reserve an arena of 64 MB of address space, a
    tenth of a server's RLIMIT_AS: while the heartbeat runs it shares the
    main one, and a test file that compiled within the limit before still
    does."""
    if not _MALLOPT:
        _MALLOPT.append(c_function("mallopt"))
    if _MALLOPT[0] is not None:
        try:
            _MALLOPT[0](M_ARENA_MAX, n)
        except Exception:
            pass


def stage(text):
    """Names what the server does now, for the heartbeat's next ping."""
    STAGE[0] = text


def _heartbeat(stop, done, beat):
    try:
        modules, blocks, write, pack = sys.modules, sys.getallocatedblocks, os.write, U32.pack
        last, high = None, blocks()
        while not stop.acquire(True, beat):
            now = blocks()
            grew = now > high + 256  # (the heartbeat's own garbage is less)
            if grew:
                high = now
            look = (STAGE[0], len(modules))
            if look != last or grew:
                last = look
                text = look[0].encode("utf-8", "replace")[:400]
                # One write, below PIPE_BUF: whole even if the process dies.
                with send_lock:
                    write(OUT_FD, pack(len(text) + 1) + MSG_PING + text)
    except BaseException:
        pass
    finally:
        done.release()


def start_heartbeat():
    """Starts the heartbeat thread (a no-op when it runs)."""
    if _RUNNING:
        return
    stop, done = allocate_lock(), allocate_lock()
    stop.acquire()
    done.acquire()
    base = _thread_count()
    _arenas(1)
    old = stack_size(256 << 10)  # (it calls little: 8 MB of address space less)
    try:
        start_new_thread(_heartbeat, (stop, done, BEAT[0]))
    finally:
        stack_size(old)
    _RUNNING[:] = (stop, done, base)


def stop_heartbeat():
    """Stops the heartbeat thread and waits until it is gone (before a
    fork, and before the checks that the process runs no other thread)."""
    if not _RUNNING:
        return
    stop, done, base = _RUNNING
    del _RUNNING[:]
    stop.release()
    done.acquire()
    # Its count falls once its function has returned, a moment after.
    wait = allocate_lock()
    wait.acquire()
    for _ in range(2000):
        if _thread_count() <= base:
            break
        wait.acquire(True, 0.0005)
    _arenas(0)
