"""The fork server of the repair cpython engine: its entry point, run as
__main__ by boot.py under the real interpreter, inside the sandbox shim.
It receives the suite once, then per candidate only its source. Three
kinds of process share one anonymous shared mapping (see protocol.py):

  forker (forker.py: the process the shim executed, PID 1 of the
          sandbox's PID namespace) forks a child when the manager asks,
          reaps it, kills and reaps whatever it left behind, and reports
          its exit status.
  manager (manager.py: forked once by the forker; never forks) talks to
          Go, compiles each candidate and puts its marshalled code into
          the mapping, enforces the per-case deadlines from outside, and
          sends the records back.
  child   (child.py: one per candidate, more if cases end it early) loads
          the code, runs the cases (candidate.py, real_pytest.py) and
          writes one record per case into the mapping.

Owns what the three share: the case table (CASES), the mapping (SHM) and
the pipes between the manager and a reused child (GO_R, DONE_W), and
UNDUMPABLE. With a test file, the first four are None once the processes
hold them (a test case's verdict is the record its child writes). setup gives every other module its part of the suite.

It must run on CPython 3.8 and later.
"""
import gc
import marshal
import math  # noqa: F401 -- loaded, as it always was: a pure candidate may import it in a reused child
import mmap
import os
from time import process_time
import _signal as signal  # signal's C half: the module itself imports enum, a tenth of a server's start

from . import bytecode, candidate, child, collected, forker, guard, manager, observe, partial, purity, real_pytest, verify
from .candidate import load_case
from .child import child_main
from .protocol import *  # noqa: F403 -- __main__ shows the protocol, as the one-file harness did
from .protocol import IN_FD, MSG_FATAL, MSG_LIST, MSG_ORIGINAL, MSG_SUITE, OUT_FD, SHM_SIZE
from .wire import go_json, read_msg, send
from .alive import BEAT, c_function, stage, start_heartbeat, stop_heartbeat
from .purity import imported_names, pure_code, take_snapshots

CASES = ()  # what the child needs of each case (candidate.Case), by index
SHM = None  # the shared mapping
GO_R = DONE_W = -1  # a reused child's ends of the pipes: from the manager, to it
UNDUMPABLE = False  # make_undumpable worked


def original_code(original, kept):
    """The original's module code, or None when it does not compile: from
    kept (MSG_ORIGINAL: what Go kept of an earlier server's, or None) when
    it is this interpreter's code, else compiled, and then sent to Go
    (MSG_ORIGINAL) for the servers that start after this one. Called before
    anything of the user's runs in the server (pytest, its plugins and
    conftest files, the target's imports): what Go keeps is what the
    compiler made of the source."""
    if kept:
        code = partial.load_original(kept, candidate.CAND_FILE)
        if code is not None:
            return code
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (SyntaxWarning)
            code = compile(original, candidate.CAND_FILE, "exec", dont_inherit=True)
    except BaseException:
        return None
    if original:
        try:
            blob = partial.original_tag() + marshal.dumps(code)
        except ValueError:  # (too deep to marshal)
            return code
        send(MSG_ORIGINAL, blob)
    return code


def setup(cfg, kept=None):
    """Sets every module up from the suite cfg, in this order (each step
    may import modules, and the last remembers which a case keeps), the
    original's code from kept when it fits (original_code). Returns the
    mask of the pure modules the test file reaches (for the guard)."""
    global CASES
    stage("loading the suite's %d cases" % len(cfg["cases"]))
    cpu0 = process_time()
    CASES = tuple(load_case(c) for c in cfg["cases"])
    observe.configure(int(cfg.get("output_cap") or 65536))
    candidate.configure(cfg)
    # The project's modules are compiled once, here, for every case of
    # every candidate (bytecode.py).
    if cfg.get("code_cache", True):
        bytecode.install([candidate.LIB_PREFIX], candidate.CAND_FILES)
        targets = candidate.MULTI or ((candidate.MODULE, candidate.CAND_FILE),)
        stage("compiling the modules of the target's package")
        t = process_time()
        bytecode.precompile(bytecode.package_dirs(targets))
        cpu0 += process_time() - t  # (no child compiles them: not a setup's cost)
    original = cfg.get("original") or ""
    stage("compiling the target %s" % candidate.shown(candidate.CAND_FILE))
    code = original_code(original, kept)
    # The check of delivered fixes hooks the interpreter before pytest and
    # the target load.
    verify.configure(cfg, candidate.CAND_FILES, candidate.MODULE)
    forker.snapshot_lib()
    pt = cfg.get("pytest")
    if candidate.TEST_MODULE and pt:
        stage("importing pytest, its plugins and conftest files")
        real_pytest.start(pt)
    import warnings

    warnings.simplefilter("ignore")  # compile() of candidates must not print
    reuse = pytest_reuse = bool(cfg.get("reuse", True))
    # Tests switch the static check off to see the guard (guard.make_guard)
    # catch what a pure candidate changed.
    purity.configure(bool(cfg.get("static_check", True)))
    preload = imported_names(code) if code is not None else set()
    if candidate.TEST_CODE is not None:
        # What the test file imports too: loaded once here, not in every
        # child.
        preload |= imported_names(candidate.TEST_CODE)
    stage("importing the modules the target and the test file import" if candidate.TEST_CODE is not None
          else "importing the modules the target imports")
    take_snapshots(preload, candidate.PYTEST)
    test_mask = 0
    # Test selection needs cases that cannot leave anything for the next
    # one: a fresh import of pure code per case (partial.py).
    select = not candidate.MULTI and not real_pytest.PYTEST_MODE
    if candidate.TEST_CODE is not None:
        pure, test_mask = pure_code(candidate.TEST_CODE, ("pytest", candidate.MODULE))
        if not pure or real_pytest.PYTEST_MODE:
            reuse = False
        if not pure_code(candidate.TEST_CODE, ("pytest", candidate.MODULE), checked=True)[0]:
            select = False
    if verify.ON:
        # The check of a delivered fix runs it whole, every case.
        select = False
    partial.configure(original, code, candidate.CAND_FILE, not candidate.MULTI and not verify.ON, select,
                      not real_pytest.PYTEST_MODE)
    if real_pytest.PYTEST_MODE and not real_pytest.COLLECT and not verify.ON:
        collected.TEST_SOURCE[0] = cfg.get("test_source") or ""
        collected.collect_once()
        purity.refresh_snapshots()
    if candidate.PACKAGE or candidate.MULTI or verify.ON:
        reuse = pytest_reuse = False
    # Under pytest a child may serve several candidates when no test can
    # leave anything for the next (collected.isolated).
    pytest_reuse = pytest_reuse and real_pytest.PYTEST_MODE and collected.ISOLATED
    # What this setup cost (under pytest: importing the test file, the
    # target and its package, and collecting) bounds a child's (the
    # manager's SETUP_CPU).
    setup_cpu = process_time() - cpu0
    manager.set_limits(cfg.get("limits") or {})
    manager.configure(CASES, cfg.get("lenient_runtime") or "", reuse, pytest_reuse, setup_cpu)
    child.configure(CASES, int(cfg.get("memory_mb") or 512), manager.SETUP_CPU)
    return test_mask


def make_undumpable():
    """prctl(PR_SET_DUMPABLE, 0) for the forker, and so for the manager
    and every child forked after it: a process of the same user without
    capabilities cannot open their /proc/PID/mem then, so a candidate
    cannot write into the forker (which every later candidate is forked
    from) or the manager (which keeps the deadlines). With namespaces /proc
    is read-only besides. Whether it worked.

    The call is made with ctypes' C half alone (alive.c_function)."""
    prctl = c_function("prctl")
    try:
        return prctl(4, 0, 0, 0, 0) == 0 and prctl(3, 0, 0, 0, 0) == 0  # PR_SET_DUMPABLE, PR_GET_DUMPABLE
    except Exception:
        return False


# The stack of a thread the code under test starts (bytes), and the
# malloc arenas of all threads (roomy_threads).
THREAD_STACK = 2 << 20
MALLOC_ARENAS = 2


def roomy_threads():
    """Lets a test start the threads it starts under plain pytest within
    a child's address-space limit (RLIMIT_AS, the suite's memory_mb):
    glibc reserves 64 MiB of address space for each thread's malloc arena
    (up to 8 per CPU) and gives each new thread a stack as large as
    RLIMIT_STACK (8 MiB), so that 50 threads reserved 1.3 GiB they
    hardly used, and a test that started 14 at once failed with "can't
    start new thread" under the 512 MiB limit. MALLOC_ARENAS arenas
    (mallopt M_ARENA_MAX) and THREAD_STACK stacks for the threads started
    from now on (pthread_setattr_default_np; the main thread's stack is
    unchanged) reserve 64 MiB and 100 MiB for 50 threads. What Python
    shows stays as it was: threading.stack_size() is 0, the limits are
    the same, the environment has no MALLOC_ARENA_MAX. The forker's
    children inherit both. Whether it worked (alive.c_function)."""
    try:
        import _ctypes

        class Size(_ctypes._SimpleCData):
            _type_ = "L"

        class Char(_ctypes._SimpleCData):
            _type_ = "c"

        class Attr(_ctypes.Array):  # a pthread_attr_t (56 bytes on x86-64, 64 on arm64)
            _type_ = Char
            _length_ = 256

        Func = c_function
        ok = Func("mallopt")(-8, MALLOC_ARENAS) == 1  # M_ARENA_MAX
        attr = Attr()
        if Func("pthread_attr_init")(attr) != 0:
            return False
        try:
            ok = Func("pthread_attr_setstacksize")(attr, Size(THREAD_STACK)) == 0 and ok
            ok = Func("pthread_setattr_default_np")(attr) == 0 and ok
        finally:
            Func("pthread_attr_destroy")(attr)
        return ok
    except Exception:
        return False


def main(harness):
    """Sets the server up, forks the manager and runs the forker's loop;
    harness are the harness's modules (for the guard)."""
    global SHM, GO_R, DONE_W, UNDUMPABLE
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    forker.identify()
    UNDUMPABLE = make_undumpable()
    roomy_threads()
    kind, payload = read_msg()
    kept = None
    if kind == MSG_ORIGINAL:
        kept, (kind, payload) = payload, read_msg()
    if kind != MSG_SUITE:
        raise ValueError("expected the suite first")
    cfg = go_json(payload)
    if cfg.get("heartbeat"):
        BEAT[0] = float(cfg["heartbeat"])
    start_heartbeat()
    if not cfg.get("environ"):
        # The candidate's environment is empty (the interpreter was
        # started with PYTHONHASHSEED only, for reproducible str hashes).
        # Else the interpreter started with the candidates' environment
        # (sandbox.Environment).
        for k in list(os.environ):
            del os.environ[k]
    forker.configure(cfg.get("work_dirs") or ())
    stage("setting the server up")
    test_mask = setup(cfg, kept)
    del payload, kept
    if real_pytest.COLLECT:
        if candidate.WORKDIR:
            os.chdir(candidate.WORKDIR)
        send(MSG_LIST, real_pytest.collect_in_child(cfg.get("original") or ""))
        os._exit(0)
    del cfg
    SHM = mmap.mmap(-1, SHM_SIZE)
    to_forker_r, to_forker_w = os.pipe()
    from_forker_r, from_forker_w = os.pipe()
    GO_R, go_w = os.pipe()  # manager to a reused child: CHILD_GO next job, CHILD_QUIT exit
    done_r, DONE_W = os.pipe()  # reused child to manager: CHILD_DONE finished
    shm, cases, go_r, done_w = SHM, CASES, GO_R, DONE_W
    if candidate.TEST_MODULE:
        # A test case's verdict is the record its child writes: the
        # mapping, the case table and the pipes are not left where code
        # under test looks first (call and I/O cases' records are judged
        # in Go, whatever the child writes).
        g = globals()
        for k in ("SHM", "CASES", "GO_R", "DONE_W"):
            g[k] = None
    bytecode.stop_keeping()
    stage("taking the guard's snapshots of the modules loaded")
    guard.make_guard(harness, child.BASE_MODULES, candidate.PYTEST, test_mask, candidate.WORKDIR)
    verify.take_server_snapshot(harness)
    stop_heartbeat()  # (the forker forks: no thread but its own)
    gc.collect()
    gc.freeze()  # the children's collections skip (and do not copy) all of this
    manager_pid = os.fork()
    if manager_pid == 0:
        os.close(to_forker_r)
        os.close(from_forker_w)
        os.close(go_r)
        os.close(done_w)
        try:
            m = manager.Manager(to_forker_w, from_forker_r, go_w, done_r, shm, cases)
            hello = {"pid_ns": forker.PIDNS, "undumpable": UNDUMPABLE, "delta": partial.BASE_CODE is not None}
            notes = {"plugins": collected.PLUGINS_ACTING, "not_isolated": collected.NOT_ISOLATED}
            m.serve(hello, real_pytest.OWN_REWRITE, notes)
        except BaseException as e:
            try:
                send(MSG_FATAL, ("%s: %s" % (type(e).__name__, e)).encode("utf-8", "replace"))
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
    os.register_at_fork(after_in_child=guard._after_fork_child, after_in_parent=guard._after_fork_parent)
    forker.forker(to_forker_r, from_forker_w, manager_pid, lambda spare: child_main(shm, cases, go_r, done_w, spare))


def run(harness):
    """boot.py's call: main, and the X message if it fails."""
    try:
        main(harness)
    except BaseException as e:
        try:
            send(MSG_FATAL, ("%s: %s" % (type(e).__name__, e)).encode("utf-8", "replace"))
        except BaseException:
            pass
        raise
