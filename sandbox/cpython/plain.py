# Plain pytest on the original program, in the sandbox, for the parity
# check (docs/engines.md, "Parity with plain pytest"): what
#
#     python -m pytest -p no:cacheprovider TEST_FILE
#
# gives in the user's project, run from the same directory with the same
# environment, ini options, conftest files and installed plugins as the
# candidates, but without the harness. Its configuration comes on stdin;
# one JSON object goes to file descriptor 3: each test's outcome as the
# tool counts it (passed: passed, skipped by a mark, xfailed, a non-strict
# xpass; failed; error: in setup or teardown; skipped: it skipped itself),
# the collection errors, and for a failure what in the sandbox caused it
# when that is recognisable (an environment variable, a file, a write to
# the read-only tree, the network). This only observes: the tests, the
# target and pytest run as plain pytest runs them.
import json
import os
import signal
import sys


def environ_key(e):
    """The variable whose lookup in os.environ raised e, or None."""
    if type(e) is not KeyError or len(e.args) != 1 or type(e.args[0]) is not str:
        return None
    tb, last = e.__traceback__, None
    while tb is not None:
        last, tb = tb, tb.tb_next
    if last is not None:
        f = last.tb_frame
        if f.f_code.co_name == "__getitem__" and f.f_globals.get("__name__") == "os":
            return e.args[0]
    return None


def in_socket(e):
    tb = e.__traceback__
    while tb is not None:
        if tb.tb_frame.f_globals.get("__name__") == "socket":
            return True
        tb = tb.tb_next
    return False


def cause(e):
    """What in the sandbox made exception e (or one it came from) happen:
    {"kind": "env", "name"}, {"kind": "file", "path"}, {"kind":
    "readonly", "path"}, {"kind": "network"}; or None."""
    import errno
    import socket

    for _ in range(8):
        if e is None:
            return None
        k = environ_key(e)
        if k is not None:
            return {"kind": "env", "name": k}
        if isinstance(e, OSError):
            if isinstance(e, socket.gaierror) or e.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
                return {"kind": "network"}
            if e.errno == errno.EPERM and in_socket(e):
                return {"kind": "network"}
            if e.filename is not None and not isinstance(e.filename, int):
                p = os.path.abspath(os.fsdecode(e.filename))
                if e.errno in (errno.ENOENT, errno.ENOTDIR):
                    return {"kind": "file", "path": p}
                if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                    return {"kind": "readonly", "path": p}
        reason = getattr(e, "reason", None)  # urllib's URLError
        e = reason if isinstance(reason, BaseException) else (e.__cause__ or e.__context__)
    return None


def one_line(e):
    try:
        s = "%s: %s" % (type(e).__name__, e) if str(e) else type(e).__name__
    except BaseException:
        s = type(e).__name__
    s = s.strip().split("\n", 1)[0]
    return s[:300]


class Timeout(BaseException):
    pass


def run_delay():
    """The seconds this process's main thread has waited for a CPU, or 0."""
    try:
        with open("/proc/self/schedstat", "rb") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def roomy_threads():
    """What the harness does at a server's start (harness/main.py,
    roomy_threads), so that the threads a test starts reserve as much
    address space here as under the tool: two malloc arenas, 2 MiB
    stacks for new threads."""
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        libc.mallopt(-8, 2)  # M_ARENA_MAX
        attr = ctypes.create_string_buffer(256)  # a pthread_attr_t
        if libc.pthread_attr_init(attr) == 0:
            libc.pthread_attr_setstacksize(attr, ctypes.c_size_t(2 << 20))
            libc.pthread_setattr_default_np(attr)
            libc.pthread_attr_destroy(attr)
    except Exception:
        pass


def main():
    roomy_threads()
    cfg = json.loads(sys.stdin.read())
    out = os.fdopen(3, "w")
    out.write(json.dumps(run_pytest(cfg)))
    out.flush()
    os._exit(0)


def run_pytest(cfg, begin=None, end=None, select=None):
    """Plain pytest on cfg's test file: each test's outcome, the
    collection errors and pytest's exit code. begin(item) and end(item),
    when given, are called around each test's run (split.py); select(),
    when given, is called once the tests are collected: the node ids of
    those to run (the others are deselected), or None for every one."""
    root = cfg["root"]
    for d in cfg.get("work_dirs") or ():
        os.makedirs(d, exist_ok=True)  # HOME and TMPDIR, in the private directory
    os.chdir(os.path.join(root, cfg.get("cwd") or ""))
    for r in reversed(cfg.get("import_roots") or []):
        p = os.path.normpath(os.path.join(root, r))
        if p not in sys.path:
            sys.path.insert(0, p)
    import pytest

    # A test's limits are the harness's: timeout seconds of CPU time (the
    # process's: ITIMER_PROF), and a wall backstop of wall_factor times
    # that and wall_slack, not counting the time the process waited for a
    # CPU (its schedstat), for a test that sleeps or waits.
    timeout = float(cfg.get("timeout") or 0)
    backstop = float(cfg.get("wall_factor") or 5) * timeout + float(cfg.get("wall_slack") or 1)
    tests, errors = {}, []
    waited = [0.0]  # the run delay when the running test's backstop was last set

    def on_prof(signum, frame):
        raise Timeout("timed out after %gs of CPU time" % timeout)

    def on_alarm(signum, frame):
        d = run_delay()
        if d - waited[0] > 0.0005:
            signal.setitimer(signal.ITIMER_REAL, d - waited[0])
            waited[0] = d
            return
        raise Timeout("timed out after %.3gs of wall-clock time" % backstop)

    class Recorder:
        @pytest.hookimpl(tryfirst=True)
        def pytest_cmdline_main(self, config):
            # pytest-xdist's -n (the ini file's addopts may say -n auto)
            # would run the tests in worker processes, whose reports reach
            # this process without their exceptions, and no hook of this
            # plugin there: they run here, one after the other, as the
            # tool runs them.
            if getattr(config.option, "numprocesses", None):
                config.option.numprocesses = 0
            if getattr(config.option, "dist", "no") != "no":
                config.option.dist = "no"

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_protocol(self, item, nextitem):
            if timeout > 0:
                signal.signal(signal.SIGPROF, on_prof)
                signal.signal(signal.SIGALRM, on_alarm)
                waited[0] = run_delay()
                signal.setitimer(signal.ITIMER_PROF, timeout)
                signal.setitimer(signal.ITIMER_REAL, backstop)
            if begin is not None:
                begin(item)
            try:
                yield
            finally:
                if timeout > 0:
                    signal.setitimer(signal.ITIMER_PROF, 0)
                    signal.setitimer(signal.ITIMER_REAL, 0)
                if end is not None:
                    end(item)

        @pytest.hookimpl(trylast=True)
        def pytest_collection_modifyitems(self, session, config, items):
            only = select() if select is not None else None
            if only is None:
                return
            keep = set(only)
            dropped = [it for it in items if it.nodeid not in keep]
            if dropped:
                items[:] = [it for it in items if it.nodeid in keep]
                config.hook.pytest_deselected(items=dropped)

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_makereport(self, item, call):
            outcome = yield
            rep = outcome.get_result()
            rec = tests.setdefault(item.nodeid, {"id": item.nodeid, "outcome": "passed"})
            if rec["outcome"] != "passed" or rep.passed:
                return
            if rep.skipped:
                if hasattr(rep, "wasxfail"):
                    return  # an xfail that failed: pytest passes it
                if call.when == "setup" and (item.get_closest_marker("skip") or item.get_closest_marker("skipif")):
                    return  # skipped by its marks
                rec["outcome"] = "skipped"
                lr = rep.longrepr
                rec["detail"] = str(lr[2]) if isinstance(lr, tuple) and len(lr) == 3 else "skipped"
                return
            rec["outcome"] = "failed" if call.when == "call" else "error"
            e = call.excinfo.value if call.excinfo is not None else None
            if isinstance(e, Timeout):
                rec["outcome"] = "timeout"
            rec["detail"] = one_line(e) if e is not None else str(rep.longrepr or "failed").strip().split("\n")[-1][:300]
            c = cause(e)
            if c is not None:
                rec["cause"] = c

        @pytest.hookimpl(hookwrapper=True)
        def pytest_make_collect_report(self, collector):
            raised = []
            collect = collector.collect

            def recorded():
                try:
                    return collect()
                except BaseException as e:
                    raised.append(e)
                    raise

            collector.collect = recorded
            try:
                outcome = yield
            finally:
                try:
                    del collector.collect
                except AttributeError:
                    pass
            rep = outcome.get_result()
            if rep is not None and rep.failed:
                e = raised[0] if raised else None
                text = str(rep.longrepr or "")
                lines = [ln[1:].strip() for ln in text.splitlines() if ln.startswith("E ")]
                rec = {"id": rep.nodeid, "outcome": "error", "detail": (lines[-1] if lines else one_line(e) if e else "error")[:300]}
                c = cause(e)
                if c is not None:
                    rec["cause"] = c
                errors.append(rec)

    args = [cfg["test_file"], "-p", "no:cacheprovider"]
    try:
        code = pytest.main(args, plugins=[Recorder()])
    except BaseException as e:
        code = -1
        errors.append({"id": "", "outcome": "error", "detail": one_line(e)})
    return {"tests": list(tests.values()), "errors": errors, "exit": int(code)}


# split.py, when it comes first, runs instead.
(globals().get("split_main") or main)()
