"""Test files under the real pytest.

Owns the pytest mode: PYTEST_MODE (test cases run under the real pytest),
its configuration and session made once in the server (PREPARED,
PREPARED_SESSION) and COLLECT (the server only lists what pytest
collects); start loads pytest. PytestCtx runs one test case as an item of
a pytest session of the child; collect_items lists the items for Go.
"""
import os
import sys

from . import candidate, plugins, record, verify
from .candidate import Ctx, LenientCtx, compile_joined, exc_detail, test_progress
from .guard import Flags
from .observe import Output
from .alive import stage, start_heartbeat, stop_heartbeat
from .protocol import DETAIL_MAX, MLE, PASSED, RTE, WRONG
from .purity import PURE_MODULES, deeply_immutable, deny_for, imported_names, pure_code

modules = sys.modules

PYTEST_MODE = False  # test cases run under the real pytest (PytestCtx)
PREPARED = None  # pytest's configuration, made once in the server
PREPARED_SESSION = None  # a session of it, started in the server
COLLECT = False  # the server only lists what pytest collects, then exits
# The test file's assertions as rewritten by the first server of the run
# (Go's: {"key", "code"}, or None), and what this server rewrote itself
# to give Go (the JSON text, or ""): see speed_up_pytest.
SHARED_REWRITE = None
OWN_REWRITE = ""


def start(pt):
    """Loads the real pytest (the "pytest" of the suite: pt) for the test
    file: from where the interpreter has it (Go found it with site.py,
    which -S skipped here), with the plugins that setuptools entry points
    load, as plain pytest has them; configured once here unless pt asks
    for a configuration per child."""
    global PYTEST_MODE, PREPARED, PREPARED_SESSION, COLLECT, SHARED_REWRITE
    SHARED_REWRITE = pt.get("rewritten")
    for d in pt.get("paths") or ():
        if d not in sys.path:
            sys.path.append(d)
    modules.pop("pytest", None)  # the stand-in
    import pytest
    import _pytest.config
    import _pytest.main
    import _pytest.python
    import _pytest.runner

    for name in _pytest.config.default_plugins:
        try:
            __import__("_pytest." + name)
        except ImportError:
            pass
    candidate.use_pytest(pytest)
    PYTEST_MODE = True
    RUNNER[:] = [_pytest.python.Function, _pytest.python.Function.runtest, pytest_verdict]
    speed_up_pytest()
    if not pt.get("per_child"):
        # pytest's rootdir, ini file and conftest files are found from the
        # directory it runs in: where the children run the tests.
        if candidate.WORKDIR:
            try:
                os.chdir(candidate.WORKDIR)
            except OSError:
                pass
        try:
            PREPARED = prepare_pytest()
            if PREPARED is not None:
                PREPARED_SESSION = prepare_session(PREPARED)
        finally:
            os.chdir(candidate.PRIVATE)
    COLLECT = bool(pt.get("collect"))


class PytestCtx(Ctx):
    """Runs test cases with the real pytest (PYTEST_MODE): the candidate is
    installed as its module, then one pytest session of this child collects
    the test file (and its conftest.py) and runs the cases' items one at a
    time, as `pytest` would in one process. Verdicts are pytest's: a
    failed assert is WRONG, any other error (in the test, a fixture or the
    collection) RUNTIME_ERROR; a test the candidate makes skip fails too,
    while a skip or skipif mark, an xfail that fails and a non-strict
    xpass count as pytest counts them."""

    def __init__(self, code, repl=None, once=None):
        Ctx.__init__(self, code)
        self.repl = repl  # the original's constants code replaces (partial.py), or None
        # The original's items collected once in the server: module
        # collected (which builds on this one, and which this one does not
        # import), or None.
        self.once = once
        self.items = None  # nodeid -> item, once collected
        self.error = None  # why the session could not start or collect
        self.excinfo = {}
        self.import_cov = None

    def session(self, cov):
        once = self.once
        if once is not None and once.COLLECTED is not None:
            if cov is None and self.repl is not None and once.swap(self.repl):
                # The server's items, the original's functions running the
                # candidate's code: what importing and collecting the
                # candidate would give (collected.py).
                self.items, self.excinfo = once.COLLECTED, once.EXCINFO
                return
            once.forget_collection()
        Flags.ran_pytest = True
        try:
            if cov is not None:
                sys.settrace(cov[0])
            try:
                d = self.fresh(candidate.MODULE)
                if self.record:
                    record.install(d, candidate.CAND_FILES)
                elif verify.ON:
                    record.install(d, candidate.CAND_FILES, verify.check_result)
                    verify.EXEMPT.update((id(c), c) for c in record.OWN_FRAME_READS)
            finally:
                if cov is not None:
                    sys.settrace(None)
                    self.import_cov = bytes(cov[1])
        except BaseException as e:
            self.error = (RTE, exc_detail(e, candidate.FILES))
            e.__traceback__ = None
            return
        try:
            self.items, errors = pytest_collect(self)
            if errors:
                self.error = (RTE, errors)
            m = sys.modules.get(candidate.TEST_MODULE)
            if m is not None:
                if self.record or verify.ON:
                    record.expose(m.__dict__)
                verify.took_test_module(m)
        except BaseException as e:
            self.items = {}
            self.error = (RTE, "pytest: " + exc_detail(e, candidate.FILES))

    def run_test(self, c, cov=None):
        if self.items is None:
            self.session(cov)
        if cov is not None and self.import_cov is not None:
            cov[1][:] = self.import_cov
            reset = getattr(cov[0], "reset", None)
            if reset is not None:
                reset()
        item = (self.items or {}).get(c.fn)
        if item is None:
            if self.error is not None:
                return self.error[0], b"", self.error[1]
            return RTE, b"", "pytest did not collect %s" % c.fn
        if cov is None and not self.record and not verify.ON and plain(item) and intact():
            return self.run_plain(c, item)
        from _pytest.runner import runtestprotocol

        Flags.ran_pytest = True
        self.excinfo.clear()
        if cov is not None:
            sys.settrace(cov[0])
        try:
            with warning_filters(item):
                reports = runtestprotocol(item, log=False, nextitem=None)
        except candidate.PYTEST.exit.Exception as e:
            # pytest.exit in a test ends pytest's run; here it fails the
            # test (the code under test may raise it).
            d = exc_detail(e, candidate.FILES)
            e.__traceback__ = None
            Flags.restart = True  # the item was not torn down
            return RTE, b"", "pytest.exit: " + d
        finally:
            if cov is not None:
                sys.settrace(None)
        e = self.excinfo.get("call")
        if e is not None:
            self.progress = test_progress(e)
        return pytest_verdict(c, reports, self.excinfo)


    def run_plain(self, c, item):
        """A plain test function's verdict, called directly: what
        runtestprotocol and pytest_verdict give it (see plain; it has no
        xfail or skip mark). The test sees PYTEST_CURRENT_TEST as the
        runner sets it for the call (set and removed as os.environ does,
        without its methods, while os.environ is the harness's)."""
        environ = os.environ
        data = ENVIRON[1] if environ is ENVIRON[0] and environ._data is ENVIRON[1] else None
        try:
            params = item.callspec.params if hasattr(item, "callspec") else {}
            value = ("%s (call)" % item.nodeid).replace("\0", "(null)")
            if data is not None:
                value = value.encode(FS_ENCODING, "surrogateescape")
                putenv(CURRENT_TEST, value)
                data[CURRENT_TEST] = value
            else:
                environ["PYTEST_CURRENT_TEST"] = value
            item.obj(**params)
            return PASSED, b"", None
        except BaseException as e:
            pt = candidate.PYTEST
            if isinstance(e, KeyboardInterrupt):
                raise
            if isinstance(e, pt.exit.Exception):
                d = exc_detail(e, candidate.FILES)
                e.__traceback__ = None
                Flags.restart = True
                return RTE, b"", "pytest.exit: " + d
            self.progress = test_progress(e)
            if isinstance(e, pt.xfail.Exception):
                e.__traceback__ = None
                return WRONG, b"", "xfailed, but the test file does not mark it xfail"
            if isinstance(e, pt.skip.Exception):
                d = str(getattr(e, "msg", "") or "")
                e.__traceback__ = None
                return WRONG, b"", "skipped" + (": " + d if d else "")
            if isinstance(e, MemoryError):
                Flags.memory = True
                e.__traceback__ = None
                return MLE, b"", "MemoryError"
            d = exc_detail(e, candidate.FILES)
            e.__traceback__ = None
            if isinstance(e, (AssertionError, pt.fail.Exception)):
                return WRONG, b"", d
            return RTE, b"", d
        finally:
            if data is None:
                environ.pop("PYTEST_CURRENT_TEST", None)
            elif CURRENT_TEST in data:
                unsetenv(CURRENT_TEST)
                del data[CURRENT_TEST]


def warning_filters(item):
    """What pytest's warnings plugin puts around each test
    (pytest_runtest_protocol, which runtestprotocol does not call): the
    filters of the ini file, -W and filterwarnings marks, under which
    "error" makes a warning fail the test as under plain pytest."""
    try:
        from _pytest.warnings import catch_warnings_for_item

        return catch_warnings_for_item(item.config, item.ihook, "runtest", item)
    except BaseException:
        import contextlib

        return contextlib.nullcontext()


_PLAIN = {}  # id of an item -> whether it is plain

# os.environ as the harness found it and its dict of encoded variables,
# which run_plain sets directly (os.environ's methods were a third of a
# plain test's cost), while both are still these.
ENVIRON = (os.environ, getattr(os.environ, "_data", None)) if type(getattr(os.environ, "_data", None)) is dict else (None, None)
FS_ENCODING = sys.getfilesystemencoding()
CURRENT_TEST = "PYTEST_CURRENT_TEST".encode(FS_ENCODING, "surrogateescape")
putenv, unsetenv = os.putenv, os.unsetenv

# What a direct call stands for, as the server loaded it: pytest's
# Function, its runtest and this module's pytest_verdict.
RUNNER = []


def intact():
    """Whether what a direct call stands for is still what the server
    loaded. Code under test that replaced Function.runtest or
    pytest_verdict (to forge verdicts) runs through the runner, as under
    plain pytest and in coverage runs: its verdicts are the same in every
    run, and the check of a delivered fix fails them."""
    return len(RUNNER) == 3 and RUNNER[0].runtest is RUNNER[1] and globals().get("pytest_verdict") is RUNNER[2]


def plain(item):
    """Whether an item is a plain test function, which runtestprotocol
    only calls: a module-level function (not a method, not a coroutine),
    whose only mark is parametrize and whose only arguments are its
    parameters (no fixture, no setup_module or setup_function, no
    usefixtures), collected by a configuration whose plugins, but pytest's
    own, leave its run alone (conftest files with hooks configure in each
    child: PREPARED is None then; a plugin of an entry point or -p that
    implements a hook of the run makes no item plain unless plugins.IDLE_WHEN
    knows it and says it leaves this item alone, and warning filters of
    the ini file or the command line make none plain: see bare_config and
    plugins_acting). pytest's own plugins do nothing else for it here: -s
    captures nothing. Computed once per item (in the server for the items
    it collected once)."""
    got = _PLAIN.get(id(item))
    if got is None:
        got = _PLAIN[id(item)] = _plain(item) and not plugins_acting(item)
    return got


def _plain(item):
    """plain's test of the item itself and of the configuration but for
    the plugins that act on a test's run."""
    try:
        import inspect

        from _pytest.python import Function, Module

        if PREPARED is None or not bare_config() or type(item) is not Function or type(item.parent) is not Module:
            return False
        f = item.obj
        if inspect.iscoroutinefunction(f) or inspect.isasyncgenfunction(f) or inspect.isgeneratorfunction(f):
            return False
        if any(m.name != "parametrize" for m in item.iter_markers()):
            return False
        params = item.callspec.params if hasattr(item, "callspec") else {}
        if list(item.fixturenames) != list(params) or getattr(item, "_fixtureinfo", None) is None:
            return False
        # pytest (before 8) gives each directly parametrized argument a
        # pseudo fixture that returns its parameter: the direct call
        # passes the same value.
        import _pytest.fixtures as fx

        direct = getattr(fx, "get_direct_param_fixture_func", None)
        return all(name in params and direct is not None and all(d.func is direct for d in defs)
                   for name, defs in item._fixtureinfo.name2fixturedefs.items())
    except BaseException:
        return False


def plugins_acting(item):
    """The plugins (their names, as -p no:NAME names them) that would act
    on item's run (plugins.acting)."""
    return plugins.acting(item, PREPARED, (Recorder, Failures))


_BARE = []


def bare_config():
    """Whether PREPARED runs a plain test function as a direct call does
    but for the plugins that act on a test's run (plugins_acting): no
    warning filter of the ini file or the command line but the harness's
    own -W ignore acts around a test's call, and the plugins could be
    read; computed once."""
    if not _BARE:
        _BARE.append(_bare_config())
    return _BARE[0]


def _bare_config():
    try:
        if plugins.run_plugins(PREPARED, (Recorder, Failures)) is None:
            return False
        if PREPARED.getini("filterwarnings"):
            return False
        return all(w == "ignore" for w in PREPARED.known_args_namespace.pythonwarnings or ())
    except BaseException:
        return False


def collect_in_child(original):
    """collect_items run in a child process, as JSON: importing the target
    or the test file may end the process (os._exit, a signal), which must
    be the suite's error, naming the target, not the server's death."""
    import json

    r, w = os.pipe()
    stage("importing and collecting the test file %s" % candidate.shown(candidate.TEST_FILE))
    stop_heartbeat()  # (the child's own pings while it collects)
    pid = os.fork()
    if pid == 0:
        try:
            start_heartbeat()
            os.close(r)
            data = json.dumps(collect_items(original)).encode()
            while data:
                data = data[os.write(w, data):]
        finally:
            os._exit(0)
    os.close(w)
    chunks = []
    while True:
        b = os.read(r, 1 << 16)
        if not b:
            break
        chunks.append(b)
    os.close(r)
    status = os.waitpid(pid, 0)[1]
    data = b"".join(chunks)
    try:
        listed = json.loads(data)
        if type(listed) is dict and listed and OWN_REWRITE and data.endswith(b"}"):
            data = data[:-1] + b', "rewritten": ' + OWN_REWRITE.encode() + b"}"
        return data
    except ValueError:
        pass
    if os.WIFSIGNALED(status):
        how = "it was killed by signal %d" % os.WTERMSIG(status)
    else:
        how = "exit status %d: os._exit, or a crash" % (os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1)
    name = os.path.basename(candidate.CAND_FILE)
    msg = "importing %s or %s ended the process (%s)" % (name, os.path.basename(candidate.TEST_FILE), how)
    return json.dumps({"items": [], "error": msg}).encode()


def collect_items(original):
    """What pytest collects with the original program as the target: the
    node ids and their lines, and the collection error if any."""
    sys.stdout = Output()
    sys.stderr = Output()
    try:
        if candidate.MULTI:
            code = compile_joined(original.encode("utf-8", "surrogateescape"))
        else:
            code = compile(original, candidate.CAND_FILE, "exec", dont_inherit=True)
    except BaseException as e:
        return {"items": [], "error": "the target does not compile: %s" % exc_detail(e, candidate.FILES)}
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
        items.append({
            "id": nodeid, "line": line, "xfail": it.get_closest_marker("xfail") is not None,
            "skip": it.get_closest_marker("skip") is not None or it.get_closest_marker("skipif") is not None,
        })
    return {"items": items, "error": ctx.error[1] if ctx.error else None}


def pytest_args():
    """The command line: the test file; the rootdir is the one pytest finds
    (in a project's tree, from the directory the tests run in, as plain
    pytest does; else lib/), its ini file's options apply."""
    args = [candidate.TEST_FILE]
    if not candidate.WORKDIR:
        args += ["--rootdir", candidate.LIB_PREFIX[:-1], "-W", "ignore"]
    return args + [
        "-s", "-q", "-p", "no:cacheprovider", "-p", "no:faulthandler",
        "-p", "no:stepwise", "-p", "no:pastebin", "-p", "no:junitxml",
        "--basetemp", os.path.join(candidate.PRIVATE, ".pytest-tmp"),
    ]


# The hooks pytest calls while it collects and runs the tests, after it
# loaded the conftest files of the test file's directory (pytest's
# _pytest/hookspec.py): a conftest.py that defines only these behaves the
# same whether it loads into a configuration made before it or into one
# of its own. Any other hook (pytest_addoption, pytest_configure,
# pytest_sessionstart, pytest_cmdline_*, ...) runs before collection and
# needs the conftest loaded before the configuration.
COLLECTION_HOOKS = frozenset((
    "pytest_generate_tests", "pytest_make_parametrize_id", "pytest_collection_modifyitems",
    "pytest_collection_finish", "pytest_collect_file", "pytest_ignore_collect", "pytest_collectstart",
    "pytest_make_collect_report", "pytest_collectreport", "pytest_itemcollected", "pytest_deselected",
    "pytest_pycollect_makemodule", "pytest_pycollect_makeitem", "pytest_pyfunc_call",
    "pytest_runtest_protocol", "pytest_runtest_logstart", "pytest_runtest_logfinish",
    "pytest_runtest_setup", "pytest_runtest_call", "pytest_runtest_teardown", "pytest_runtest_makereport",
    "pytest_runtest_logreport", "pytest_fixture_setup", "pytest_fixture_post_finalizer",
    "pytest_assertrepr_compare", "pytest_assertion_pass", "pytest_exception_interact",
    "pytest_report_teststatus", "pytest_markeval_namespace", "pytest_warning_recorded",
))


def configuring_hooks(source):
    """Whether a conftest.py's source (bytes) defines a hook that must load
    before pytest's configuration (any but COLLECTION_HOOKS) or names
    plugins to load (pytest_plugins)."""
    import re

    if b"pytest_plugins" in source:
        return True
    for m in re.finditer(rb"\bpytest_\w+", source):
        name = m.group().decode("ascii")
        if name not in COLLECTION_HOOKS:
            return True
    return False


def conftest_hooks():
    """Whether a conftest.py that pytest loads for the test file (in its
    directory or above, up to lib/ or the tree's root) defines hooks that
    need a configuration per child (configuring_hooks)."""
    top = candidate.LIB_PREFIX[:-1]
    d = os.path.dirname(candidate.TEST_FILE)
    while True:
        p = os.path.join(d, "conftest.py")
        try:
            with open(p, "rb") as f:
                if configuring_hooks(f.read()):
                    return True
        except OSError:
            pass
        if d == top or len(d) <= len(top) or os.path.dirname(d) == d:
            return False
        d = os.path.dirname(d)


def prepare_pytest():
    """pytest's configuration, parsed and configured once in the server
    (half of what a session costs), or None where that is not safe: a
    conftest.py that defines hooks (options, configure) must load before
    the configuration, so each child then configures its own."""
    from _pytest.config import _prepareconfig

    try:
        if conftest_hooks():
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

        rw._rewrite_test(Path(candidate.TEST_FILE), config)
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
    it again), and taken from the run's first server when it rewrote the
    same file alike (rewrite_key; 0.1 s of every server's start for 100
    tests), and a failing test gets no long failure report (the verdict
    reads the exception itself; pytest's report with its source lines was
    half of a failing candidate's time)."""
    import _pytest.assertion.rewrite as rw
    import _pytest.python

    rewrite, memo = rw._rewrite_test, {}

    def rewrite_once(fn, config):
        global OWN_REWRITE
        try:
            st = os.stat(fn)
        except OSError:
            return rewrite(fn, config)
        key = (str(fn), st.st_mtime_ns, st.st_size, st.st_ino)
        got = memo.get(key)
        if got is None:
            shared, rk = SHARED_REWRITE, rewrite_key(rw, fn, config)
            if type(shared) is dict and rk is not None and shared.get("key") == rk:
                got = shared_code(st, shared.get("code"))
            if got is None:
                got = rewrite(fn, config)
                if rk is not None and type(got) is tuple and len(got) == 2 and type(got[1]) is type(rewrite_key.__code__):
                    import binascii
                    import marshal

                    OWN_REWRITE = '{"key": "%s", "code": "%s"}' % (
                        rk, binascii.b2a_base64(marshal.dumps(got[1]), newline=False).decode("ascii"))
            memo[key] = got
        return got

    def short_report(self, excinfo, style=None):
        try:
            return excinfo.exconly()[:DETAIL_MAX]
        except BaseException:
            return "failed"

    rw._rewrite_test = rewrite_once
    _pytest.python.Function._repr_failure_py = short_report


def rewrite_key(rw, fn, config):
    """What pytest's rewriting of the test file fn depends on, as a hex
    digest: the file's path and bytes, pytest's version and rewriter, the
    interpreter (the code is marshalled) and the ini option the rewriter
    reads; None when any cannot be read."""
    try:
        import hashlib

        with open(fn, "rb") as f:
            source = f.read()
        h = hashlib.sha256(source)
        for part in (str(fn), candidate.PYTEST.__version__, getattr(rw, "__file__", ""), sys.hexversion,
                     sys.implementation.cache_tag, bool(config.getini("enable_assertion_pass_hook"))):
            h.update(b"\0" + repr(part).encode())
        return h.hexdigest()
    except BaseException:
        return None


def shared_code(st, code):
    """The rewriting's result (the stat and the code object) from the
    marshalled code Go passed on, or None."""
    try:
        import binascii
        import marshal

        co = marshal.loads(binascii.a2b_base64(code))
        if type(co) is type(rewrite_key.__code__):
            return st, co
    except BaseException:
        pass
    return None


class Recorder:
    """The plugin that keeps the exception of each phase of a test
    (ctx.excinfo: when -> exception), which pytest_verdict reads."""

    def __init__(self, ctx):
        self.ctx = ctx

    def pytest_runtest_makereport(self, item, call):
        if call.excinfo is not None:
            self.ctx.excinfo[call.when] = call.excinfo.value


class Failures:
    """The plugin that keeps the failed collection reports (errors)."""

    def __init__(self, errors):
        self.errors = errors

    def pytest_collectreport(self, report):
        if report.failed:
            self.errors.append(report)


def pytest_collect(ctx, collector=None):
    """A configured session's items by node id, and the collection errors
    (one line) or None. collector, if not None, is the session of
    PREPARED that collects (collect_once)."""
    from _pytest.config import _prepareconfig
    from _pytest.main import Session

    config = PREPARED
    session = None
    once = ctx.once
    if once is not None and once.COLLECTED is not None and once.CONFTESTS:
        # The server's configuration holds the conftest files it loaded
        # with the original (collect_once): a configuration of our own,
        # as pytest's own inline runs make.
        config = None
    if config is not None:
        # Configured in the server; the conftest files, which may import
        # the target, load here, with the candidate in place.
        from pathlib import Path

        pm = config.pluginmanager
        pm._noconftest = False
        pm._try_load_conftest(Path(candidate.TEST_FILE), config.getoption("importmode"), config.rootpath)
        pm.register(Recorder(ctx))
        session = collector or PREPARED_SESSION
    else:
        before = verify.before_configuring()
        config = _prepareconfig(pytest_args(), [Recorder(ctx)])
        config._do_configure()
        verify.configured(before)
    if session is None:
        session = Session.from_config(config)
        config.hook.pytest_sessionstart(session=session)
    errors = []
    config.pluginmanager.register(Failures(errors))
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
        where = r.nodeid or os.path.basename(candidate.TEST_FILE)
        msg = "collecting %s: %s" % (where, last or (lines[-1] if lines else "error"))
    return {it.nodeid: it for it in items}, msg


def raised_by_candidate(e):
    """Whether exception e went through a frame of the code under test."""
    tb = e.__traceback__
    files = candidate.CAND_FILES
    while tb is not None:
        if tb.tb_frame.f_code.co_filename in files:
            return True
        tb = tb.tb_next
    return False


def pytest_verdict(c, reports, excinfo):
    """The record of test case c from its item's setup, call and teardown
    reports: pytest's outcomes, but for those the code under test could
    forge. An xfail outcome passes only when the test carried an xfail
    mark when the original was collected (c.xfail), and not when the code
    under test raised it (pytest.xfail); a skip passes only in setup, with
    a skip or skipif mark collected (c.skip); any other skip fails, as
    does a strict xpass."""
    for r in reports:
        if r.passed:
            continue
        when = r.when
        e = excinfo.get(when)
        if r.skipped:
            if hasattr(r, "wasxfail"):
                if not c.xfail:
                    return WRONG, b"", "xfailed, but the test file does not mark it xfail"
                if e is not None and isinstance(e, candidate.PYTEST.xfail.Exception) and raised_by_candidate(e):
                    e.__traceback__ = None
                    return WRONG, b"", "xfailed by the code under test: " + str(e)[:200]
                continue  # an xfail that failed as expected: pytest passes it
            if when == "setup" and c.skip and (e is None or not raised_by_candidate(e)):
                continue  # skipped by its marks, whatever the candidate
            reason = ""
            lr = r.longrepr
            if isinstance(lr, tuple) and len(lr) == 3:
                reason = str(lr[2])
                if reason.startswith("Skipped: "):
                    reason = reason[len("Skipped: "):]
            return WRONG, b"", "skipped" + (": " + reason if reason else "")
        if e is None:
            # A strict xpass, or a failure pytest made up.
            text = str(r.longrepr or "failed").strip().splitlines()
            return WRONG, b"", (text[-1] if text else "failed")[:300]
        d = exc_detail(e, candidate.FILES)
        e.__traceback__ = None
        if when != "call":
            return RTE, b"", "error in %s: %s" % (when, d)
        if isinstance(e, MemoryError):
            Flags.memory = True
            return MLE, b"", "MemoryError"
        if isinstance(e, AssertionError) or isinstance(e, candidate.PYTEST.fail.Exception):
            return WRONG, b"", d
        return RTE, b"", d
    return PASSED, b"", None


class LenientPytestCtx(PytestCtx):
    """PytestCtx for lenient mode: the candidate as LenientCtx installs it."""

    def __init__(self, code, lx, once=None):
        PytestCtx.__init__(self, code, None, once)
        self.case_builtins = lx.case_builtins

    fresh = LenientCtx.fresh
