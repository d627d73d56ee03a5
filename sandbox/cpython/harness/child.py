"""The child: one per candidate (more when cases end it early), forked by
the forker; it loads the candidate's code from the shared memory, runs the
cases and writes the running case and its start, then one record per
case, into the shared memory: no system call per case. A child that ran a
pure candidate and left the process clean (guard.py) waits for the next
one.

Owns what a child needs besides the case table and the shared memory
(which main.py hands it): MEMORY_MB, the CPU limits CPU_LIMITS, ALL_CALLS,
PLAIN (the cases the loops run inlined), and what each case must find as
the previous one left it: PATH0, RECURSION_LIMIT, EMPTY_STDIN and
BASE_MODULES, the modules a case keeps (configure, the last step of the
setup).
"""
import gc
import marshal
import os
import resource
import struct
import sys
from _thread import _count as _thread_count
from time import monotonic, process_time

from . import candidate, collected, guard, partial, real_pytest, record, verify
from .candidate import Ctx, LenientCtx
from .guard import Flags
from .observe import I64_MAX, I64_MIN, NO_ARGS, RET_INT, Output, encode_value, make_stdin
from .protocol import (
    CALL, CALLS_MAX, CHILD_DONE, CHILD_GO, CODE_OFF, CPU_SECS, DETAIL_MAX, EXIT_MEMORY, HDR, INJ_MAX, IO, JOB, JOB_OFF,
    JOB_KEEP, JOB_KEPT, JOB_NO_GLOBALS, JOB_ORIGINAL, JOB_PARTIAL, JOB_PURE, JOB_RECORD, MAX_SERVED, PROGRESS, REC, RTE,
    ST_RETURNED, U32,
)
from .tracing import make_tracer
from .wire import Listed, encode_lines, pack_lines, put_record
from .real_pytest import LenientPytestCtx, PytestCtx

ModuleType = type(sys)
modules = sys.modules

MEMORY_MB = 512  # RLIMIT_AS of a child
CPU_LIMITS = ()  # RLIMIT_CPU (seconds) of a child that starts at case i
ALL_CALLS = False  # every case is a call case without stdin (run_pure_calls)
EMPTY_STDIN = None  # sys.stdin of a case without input
RECURSION_LIMIT = 1000
PATH0 = ()  # sys.path as every case starts with it
BASE_MODULES = set()  # the modules a case keeps loaded (prune_modules adds the standard library's)
PLAIN = ()  # per case: (callee, arguments) of a plain call (run_pure_calls), else None

# The record of a call that returned an int: REC and its observation,
# RET_INT, in one layout.
REC_INT = struct.Struct(REC.format + RET_INT.format[1:])


def configure(cases, memory_mb, setup_cpu=10.0):
    """Sets what a child needs for cases: call it last in the setup, once
    sys.path and the modules loaded are as every case must find them;
    setup_cpu is the CPU time a child's setup may take (the manager's)."""
    global MEMORY_MB, CPU_LIMITS, ALL_CALLS, EMPTY_STDIN, RECURSION_LIMIT, PATH0, BASE_MODULES, PLAIN
    MEMORY_MB = memory_mb
    # RLIMIT_CPU of a child that starts at case i: a backstop only, the
    # manager enforces each case's limit and the setup's.
    limits = []
    total = 2.0 + setup_cpu
    for c in reversed(cases):
        total += c.timeout
        limits.append(int(total) + 1)
    CPU_LIMITS = tuple(reversed(limits))
    ALL_CALLS = all(c.kind == CALL and c.stdin is None for c in cases)
    # A plain call: a top-level function, scalar arguments, no keyword
    # arguments, nothing to report but the value (Ctx.run_call_in's
    # shortest path).
    PLAIN = tuple(
        (c.fn_head, c.args)
        if c.kind == CALL and not c.fn_rest and c.args is not None and c.kwargs == () and c.then_m is None
        and not c.want_args else None
        for c in cases
    )
    EMPTY_STDIN = make_stdin("")
    RECURSION_LIMIT = sys.getrecursionlimit()
    PATH0 = tuple(sys.path)
    BASE_MODULES = set(modules)


def child_main(shm, cases, go_r, done_w, spare=False):
    """Runs in a fresh fork of the forker; never returns. shm is the shared
    memory, cases the case table, go_r and done_w the pipes from and to the
    manager that a reused child waits on. After a pure candidate that left
    the process clean it tells the manager and waits for the next one. A
    spare (forked ahead, manager.spawn_spare) waits for its first job the
    same way, ready before it."""
    try:
        Flags.copy = Flags.forked = Flags.memory = Flags.restart = Flags.ran_pytest = False
        os.setpgid(0, 0)  # the manager kills the group at a deadline
        if candidate.WORKDIR:
            try:
                os.chdir(candidate.WORKDIR)  # a project's tests run where pytest would
            except OSError:
                pass
        os.dup2(1, 2)  # fd 1 is /dev/null; fd 2 was the server's diagnostics
        lo, hi = min(go_r, done_w), max(go_r, done_w)
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
        clean = guard.LEFT_CLEAN
        pytest_mode = real_pytest.PYTEST_MODE
        mods0, base0 = dict(modules), set(BASE_MODULES)
        if spare and os.read(go_r, 1) != CHILD_GO:
            os._exit(0)
        while True:
            _, _, _, start = HDR.unpack_from(shm, 0)
            code_len, L, covoff, recbase, cap, reuse, job, lx_off, mask, end, jflags, sel_off = JOB.unpack_from(
                shm, JOB_OFF)
            part = jflags & JOB_PARTIAL
            if not reuse:
                os.close(go_r)
                os.close(done_w)
            if jflags & JOB_ORIGINAL:
                code = partial.BASE_CODE  # the forker's, as the server compiled it
            else:
                code = marshal.loads(shm[CODE_OFF : CODE_OFF + code_len])
            # (No global of the harness changes here: the guard after a
            # pure candidate compares them.)
            repl = code if part else None
            if part:
                code = partial.assemble(code)
            sel = bytes(shm[sel_off : sel_off + len(cases)]) if sel_off else None
            used = resource.getrusage(resource.RUSAGE_SELF)
            cpu = int(used.ru_utime + used.ru_stime) + CPU_LIMITS[start]
            try:
                resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
            except (ValueError, OSError):
                pass
            same_import = 0
            if jflags & JOB_PURE:
                same_import = 1
                if jflags & JOB_KEEP:
                    same_import = 3 if jflags & JOB_NO_GLOBALS else 2
            run_cases(shm, cases, start, end, code, L, covoff, recbase, cap, reuse, lx_off, sel, repl,
                      same_import, jflags & JOB_RECORD)
            del code, sel, repl
            served += 1
            if not reuse or served >= MAX_SERVED:
                os._exit(0)
            if pytest_mode:
                # Only plain tests ran, on the original's items (the
                # manager reuses a child under pytest only for candidates
                # that keep the session isolated): their functions get the
                # original's code back, and the guard looks at the rest.
                collected.unswap()
                if Flags.ran_pytest:
                    os._exit(0)
            if not clean(mods0, base0, mask):
                os._exit(0)
            os.write(done_w, CHILD_DONE)
            while True:
                b = os.read(go_r, 1)
                if b != CHILD_GO:
                    os._exit(0)
                if JOB.unpack_from(shm, JOB_OFF)[6] != job:
                    break  # else a stale wake-up: the job was not for us
    except MemoryError:
        os._exit(EXIT_MEMORY)
    except BaseException:
        os._exit(3)
    os._exit(0)


def open_schedstat():
    """A descriptor of this process's /proc schedstat, or -1."""
    try:
        return os.open("/proc/self/schedstat", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return -1


def run_delay(fd):
    """The seconds this process has waited for a CPU (the second field of
    schedstat) as fd reads it now, or 0.0."""
    if fd < 0:
        return 0.0
    try:
        return int(os.pread(fd, 64, 0).split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def run_cases(shm, cases, start, end, code, L, covoff, recbase, cap, pure, lx_off, sel=None, repl=None,
              same_import=0, rec=0):
    """Runs cases start..end-1 of the candidate code (only those sel
    selects, when not None); repl are the original's constants a partial
    candidate replaces (partial.py), or None. With coverage and
    same_import (pure code: every fresh import runs the same lines), the
    import of a call case is traced once and its lines given to the next
    cases (call_with_coverage); with same_import 2 or 3 (the keep_module
    of run_pure_calls) the call cases share one import while it provably
    holds what a fresh one would. With rec, test cases record their calls
    into the target (record.py)."""
    if pure and ALL_CALLS and L == 0:
        return run_pure_calls(shm, cases, start, end, code, recbase, cap, pure if pure >= 2 else 0, sel, repl)
    hdr_pack = HDR.pack_into
    rec_pack = REC.pack_into
    rec_size = REC.size
    clock = monotonic
    flags = Flags
    n = end
    pytest_mode = real_pytest.PYTEST_MODE
    module, test_module = candidate.MODULE, candidate.TEST_MODULE
    thread_count = _thread_count
    getrl, setrl = sys.getrecursionlimit, sys.setrecursionlimit
    nmods = len(modules)
    harness_main = modules["__main__"]
    cov = L > 0
    maxrec = REC.size + 2 + DETAIL_MAX + 4 + 4 * L + PROGRESS.size + CPU_SECS.size
    if cov:
        covmv = memoryview(shm)[covoff : covoff + L]
        zeros = bytes(L)
        tracer = make_tracer(covmv, L, code[1] if candidate.MULTI else None)
        reset_cov = getattr(tracer, "reset", None) or (lambda: None)
    lx = None
    if lx_off:
        lx = load_lenient(shm, lx_off)
        maxrec += INJ_MAX
        ctx = LenientPytestCtx(code, lx, collected) if pytest_mode else LenientCtx(code, lx)
    elif pytest_mode:
        ctx = PytestCtx(code, repl, collected)
    else:
        ctx = Ctx(code)
    recording = bool(rec) and bool(test_module)
    if recording:
        ctx.record = True
        maxrec += 4 + CALLS_MAX
    checking = verify.ON and bool(test_module)
    if checking:
        end_case, begin_case = verify.END, verify.begin
    calls = None
    trace_all = cov and not pytest_mode
    import_cov = None
    if trace_all and same_import:
        import_cov = ImportCov(same_import, covmv, L, code[1] if candidate.MULTI else None)
    listed = Listed() if cov else None
    # Plain calls (PLAIN) run inlined, as in run_pure_calls, when nothing
    # wraps a case: no coverage, recording, check, lenient runtime or
    # pytest session.
    plain = PLAIN if not (cov or recording or checking or lx is not None or pytest_mode) else ()
    fresh, raised = ctx.fresh, ctx.raised
    int_pack, int_size, int_obs = REC_INT.pack_into, REC_INT.size, RET_INT.size
    lo, hi = I64_MIN, I64_MAX
    path0 = list(PATH0)
    sysd = sys.__dict__
    used = recbase
    out = err = None
    i = start
    if sel is not None:
        while i < n and not sel[i]:
            i += 1
    if pytest_mode and i < n and ctx.items is None:
        # The session (importing the test file, and with it the candidate
        # and its package, and collecting) is the child's setup, under the
        # manager's setup limit: not the first test's time.
        sysd["stdout"], sysd["stderr"] = Output(), Output()
        ctx.session((tracer, covmv) if cov else None)
    t0 = clock()
    p0 = process_time() if cov else 0.0
    # A coverage run reports each case's CPU time (Go's waits: do the
    # cases mostly sleep or wait for I/O?). The time a case waited for a
    # CPU counts as CPU time there: on a loaded machine a busy case must
    # not read as waiting. Read only when a case's wall time is well
    # above its CPU time; the delay since the last reading goes to it.
    sched = open_schedstat() if cov else -1
    d0 = run_delay(sched)
    last_lines = None  # the lines of the last record written that lists them
    hdr_pack(shm, 0, i, t0, used, i)
    while i < n:
        c = cases[i]
        if out is None or out.n or out.closed:
            out = Output()
        if err is None or err.n or err.closed:
            err = Output()
        # (Set only when changed: setting an attribute of sys costs more
        # than reading its dict.)
        if sysd.get("stdout") is not out:
            sysd["stdout"] = out
        if sysd.get("stderr") is not err:
            sysd["stderr"] = err
        stdin = EMPTY_STDIN if c.stdin is None else make_stdin(c.stdin)
        if sysd.get("stdin") is not stdin:
            sysd["stdin"] = stdin
        del stdin
        kind = c.kind
        r = None  # a returned int, its record written in one pack
        via_import = False  # call_with_coverage ran it: import_cov knows its lines
        p = plain[i] if plain else None
        if p is not None:
            # Ctx.run_call of a plain call.
            try:
                dd = fresh(module)
            except BaseException as e:
                status, payload, detail = raised(e)
            else:
                f = None
                try:
                    f = dd.get(p[0], dd)
                    if f is dd:
                        status, payload, detail = RTE, b"", "the candidate does not define %s" % p[0]
                    else:
                        r = f(*p[1])
                        if type(r) is not int or not lo <= r <= hi:
                            status, payload, detail = ST_RETURNED, encode_value(r) + NO_ARGS, None
                            r = None
                except BaseException as e:
                    r = None
                    status, payload, detail = raised(e)
                del dd, f
        elif import_cov is not None and kind == CALL:
            status, payload, detail = call_with_coverage(ctx, c, covmv, import_cov)
            via_import = True
        else:
            if trace_all:
                sys.settrace(tracer)
            if recording:
                record.begin()
            if checking:
                record.new_case()
                begin_case()
            if kind == CALL:
                status, payload, detail = ctx.run_call(c)
            elif kind == IO:
                status, payload, detail = ctx.run_io(c, out)
            elif pytest_mode:
                status, payload, detail = ctx.run_test(c, (tracer, covmv) if cov else None)
            else:
                status, payload, detail = ctx.run_test(c)
            if trace_all:
                sys.settrace(None)
            if recording:
                calls = record.take()
                if calls is not None and len(calls) > CALLS_MAX:
                    calls = None
            if checking:
                (status, payload, detail), ended = end_case((status, payload, detail))
                if ended:
                    flags.restart = True
        if flags.copy:
            os._exit(0)  # a fork of the candidate came back into the harness
        t1 = clock()
        if r is not None:
            # A plain call: no progress, coverage, injections or calls.
            if used + int_obs + maxrec > cap:
                hdr_pack(shm, 0, -1, t1, used, i)
                os._exit(0)
            int_pack(shm, used, i, ST_RETURNED, 0, t1 - t0, b"i", r, 0)
            used += int_size
            detail = payload = None
        else:
            if used + len(payload) + maxrec > cap:
                # No room for this record: a fresh child runs the case again
                # with an empty record area.
                hdr_pack(shm, 0, -1, t1, used, i)
                os._exit(0)
            progress = ctx.progress
            if progress is not None:
                ctx.progress = None
            cpu = lines = ref = None
            if cov:
                p1 = process_time()
                cpu, p0 = p1 - p0, p1
                if sched >= 0 and t1 - t0 > 2 * cpu + 0.001:
                    d1 = run_delay(sched)
                    cpu, d0 = cpu + max(d1 - d0, 0.0), d1
                lines = import_cov.encode() if via_import else encode_lines(covmv)
                if lines is last_lines or lines == last_lines:
                    # Most cases take one of a few paths: the lines of a
                    # large module's import (every case's) are not listed,
                    # sent and decoded again for each (REC_SAME_LINES),
                    # nor those of a path an earlier record listed
                    # (REC_LINES_REF).
                    lines = b""
                else:
                    last_lines = lines
                    ref = listed.ref(lines)
            if lx is not None:
                used = put_record(shm, used, i, status, t1 - t0, payload, detail, None, lx.take(), progress, None, cpu,
                                  lines, ref)
                if cov:
                    covmv[:] = zeros
                    reset_cov()
            elif detail or cov or progress or calls:
                used = put_record(shm, used, i, status, t1 - t0, payload, detail, None, None, progress, calls, cpu, lines,
                                  ref)
                if cov:
                    covmv[:] = zeros
                    reset_cov()
            else:
                rec_pack(shm, used, i, status, 0, t1 - t0)
                used += rec_size
                shm[used : used + len(payload)] = payload
                used += len(payload)
        i += 1
        if sel is not None:
            while i < n and not sel[i]:
                i += 1
        # Restore what a case may have changed for the next one (a pytest
        # session keeps its modules from one test to the next, as pytest
        # does).
        if not pytest_mode:
            modules.pop(module, None)
            if test_module:
                modules.pop(test_module, None)
            if len(modules) != nmods:
                nmods = prune_modules(BASE_MODULES)
        if modules.get("__main__") is not harness_main:
            modules["__main__"] = harness_main
        sp = sys.path
        if (sp != path0) if type(sp) is list else (tuple(sp) != PATH0):
            sys.path = list(PATH0)
        del sp
        if getrl() != RECURSION_LIMIT:
            setrl(RECURSION_LIMIT)
        if EMPTY_STDIN.closed:
            reset_empty_stdin()
        del c, detail, payload
        # A case that left processes or threads behind, or a full record
        # area, ends this child at a case boundary: the forker kills what is
        # left and the manager has a fresh child run the remaining cases.
        if i < n and (flags.forked or flags.restart or thread_count() or used + maxrec > cap):
            hdr_pack(shm, 0, -1, t1, used, i)
            os._exit(0)
        hdr_pack(shm, 0, i, t1, used, i)
        t0 = t1
    if sched >= 0:
        os.close(sched)
    hdr_pack(shm, 0, -1, clock(), used, i)


class ImportCov:
    """call_with_coverage's state across one run's call cases: the lines
    of the traced import (as coverage, and listed), and with keep
    (run_pure_calls' keep_module: 2 or 3; 0 once the module cannot be
    kept) the import the cases share, its dict and, for 2, a copy the dict
    must still equal after a case.

    Its tracer lists the lines a case executes that the coverage did not
    hold yet (touched): after the import, the case's own. A case's lines
    are then the import's and those (encode), known without reading the
    coverage: on a large module, hashing its coverage to find the
    encoding cost every case more than the call."""

    __slots__ = ("lines", "base", "based", "touched", "tracer", "encoded", "module", "d", "snap", "keep")

    def __init__(self, keep, covmv, L, offsets):
        self.lines = self.module = self.d = self.snap = None
        self.base = ()  # the import's lines, ascending
        self.based = False  # the case's coverage started from the import's
        self.touched = []
        self.tracer = make_tracer(covmv, L, offsets, self.touched)
        self.encoded = {}  # (based, the lines touched, ascending) -> the encoding
        self.keep = keep if keep >= 2 else 0

    def encode(self):
        """The last case's lines, encoded (encode_lines): the same object
        for the same lines."""
        t = self.touched
        if len(t) > 1:
            t.sort()
        key = (self.based, tuple(t))
        b = self.encoded.get(key)
        if b is None:
            b = pack_lines(sorted(self.base + key[1]) if self.based else key[1])
            if len(self.encoded) >= 64:
                self.encoded.clear()
            self.encoded[key] = b
        return b


def call_with_coverage(ctx, c, covmv, st):
    """ctx.run_call(c) with coverage, the import traced only the first
    time (st.lines then holds its lines): pure code imports the same way
    every time, and tracing a large module's import was most of what a
    case cost. With st.keep, the cases share one import while it holds
    what a fresh import would."""
    d = None
    tracer, touched = st.tracer, st.touched
    touched.clear()
    if st.lines is None:
        st.based = False
        sys.settrace(tracer)
        try:
            d = ctx.fresh(candidate.MODULE)
        except BaseException as e:
            sys.settrace(None)
            return ctx.raised(e)
        sys.settrace(None)
        st.lines = bytes(covmv)
        touched.sort()
        st.base, st.based = tuple(touched), True
        touched.clear()
    else:
        covmv[:] = st.lines
        st.based = True
        if st.d is not None:
            d = st.d
            modules[candidate.MODULE] = st.module
        elif st.keep:
            m, d, snap = ctx.reusable_module(st.keep == 2)
            if d is None:
                st.keep = 0
            else:
                st.module, st.d, st.snap = m, d, snap
        if d is None:
            try:
                d = ctx.fresh(candidate.MODULE)
            except BaseException as e:
                return ctx.raised(e)
    sys.settrace(tracer)
    try:
        return ctx.run_call_in(c, d)
    finally:
        sys.settrace(None)
        if st.d is not None and st.keep == 2 and st.d != st.snap:
            st.module = st.d = st.snap = None


def run_pure_calls(shm, cases, start, end, code, recbase, cap, keep_module, sel=None, repl=None):
    """run_cases for call cases of a pure candidate: such code cannot reach
    sys, fork or start threads, so only what it can change is restored
    between cases.

    With keep_module (2: the candidate stores no attribute anywhere), the
    module is not executed again for the next case while it provably holds
    what a fresh import would: its body ran in under a millisecond and made
    only functions of its own with immutable defaults, immutable constants
    and things of pure standard-library modules, and the case left its
    globals as they were. Without attribute stores, pure code cannot change
    anything such a module body reads, so executing it again would make the
    same module. With 3 (no global name stored or deleted either: no
    STORE_GLOBAL or DELETE_GLOBAL in any of its code, and pure code cannot
    reach its globals otherwise), no case can change them: they are not
    compared after each case, which in a large module cost more than the
    case.

    A case of PLAIN (a plain call, see configure) on the module kept is
    Ctx.run_call_in inlined, and a returned int is its record and
    observation in one pack: the commonest case costs a few struct calls,
    not a few calls of functions.

    The original, and a partial candidate whose replacements (repl) are
    the code of functions only, run on the import the child keeps
    (candidate.kept_original) when it can."""
    hdr_pack = HDR.pack_into
    rec_pack = REC.pack_into
    rec_size = REC.size
    int_pack = REC_INT.pack_into
    int_size = REC_INT.size
    int_obs = RET_INT.size  # the observation's part, as the room check counts a payload
    clock = monotonic
    n = end
    mods = modules
    modname = candidate.MODULE
    maxrec = REC.size + 2 + DETAIL_MAX + 4
    ctx = Ctx(code)
    run_call, run_in, raised = ctx.run_call, ctx.run_call_in, ctx.raised
    plain = PLAIN
    lo, hi = I64_MIN, I64_MAX
    out = Output()
    sys.stdout = out
    sys.stderr = Output()
    sys.stdin = EMPTY_STDIN
    nmods = len(mods)
    used = recbase
    m = d = snap = None
    compare = keep_module == 2
    kept = swapped = None
    if keep_module and partial.SWAP_OK and (repl is not None or code is partial.BASE_CODE):
        kept = candidate.kept_original(partial.BASE_CODE)
        if kept is not None:
            swapped = partial.swap_in(kept[3], repl or ())
            if swapped is None:
                kept = None
            else:
                m, d = kept[0], kept[1]
                snap = kept[2] if compare else None
                f = JOB.unpack_from(shm, JOB_OFF)
                JOB.pack_into(shm, JOB_OFF, *f[:10], f[10] | JOB_KEPT, f[11])
    i = start
    if sel is not None:
        while i < n and not sel[i]:
            i += 1
    t0 = clock()
    hdr_pack(shm, 0, i, t0, used, i)
    while i < n:
        p = plain[i]
        r = None  # a returned int, its record written in one pack
        if d is not None and p is not None:
            # Ctx.run_call_in of a plain call, on the module kept.
            mods[modname] = m
            f = None
            try:
                f = d.get(p[0], d)
                if f is d:
                    status, payload, detail = RTE, b"", "the candidate does not define %s" % p[0]
                else:
                    r = f(*p[1])
                    if type(r) is not int or not lo <= r <= hi:
                        # Encoding may run the candidate's code (a
                        # returned generator, a __repr__): what it raises
                        # is the case's exception.
                        status, payload, detail = ST_RETURNED, encode_value(r) + NO_ARGS, None
                        r = None
            except BaseException as e:
                r = None
                status, payload, detail = raised(e)
            del f
            if compare and d != snap:
                d = None
        elif d is not None:
            mods[modname] = m
            status, payload, detail = run_in(cases[i], d)
            if compare and d != snap:
                d = None
        elif keep_module:
            m, d, snap = ctx.reusable_module(compare)
            if d is None:
                keep_module = 0
                status, payload, detail = run_call(cases[i])
            else:
                status, payload, detail = run_in(cases[i], d)
                if compare and d != snap:
                    d = None
        else:
            status, payload, detail = run_call(cases[i])
        t1 = clock()
        if r is not None:
            if used + int_obs + maxrec > cap:
                hdr_pack(shm, 0, -1, t1, used, i)  # no room: a fresh child runs it again
                os._exit(0)
            int_pack(shm, used, i, ST_RETURNED, 0, t1 - t0, b"i", r, 0)
            used += int_size
        else:
            if used + len(payload) + maxrec > cap:
                hdr_pack(shm, 0, -1, t1, used, i)  # no room: a fresh child runs it again
                os._exit(0)
            if detail:
                used = put_record(shm, used, i, status, t1 - t0, payload, detail, None)
            else:
                rec_pack(shm, used, i, status, 0, t1 - t0)
                used += rec_size
                shm[used : used + len(payload)] = payload
                used += len(payload)
            del detail, payload
        i += 1
        if sel is not None:
            while i < n and not sel[i]:
                i += 1
        mods.pop(modname, None)
        if len(mods) != nmods:
            nmods = prune_modules(BASE_MODULES)
        if out.n:
            out = Output()
            sys.stdout = out
        if i < n and used + maxrec > cap:
            hdr_pack(shm, 0, -1, t1, used, i)
            os._exit(0)
        hdr_pack(shm, 0, i, t1, used, i)
        t0 = t1
    if swapped is not None:
        partial.swap_out(swapped)
        if compare and kept[1] != kept[2]:
            candidate.KEPT[0] = None  # a case stored a global: the next import is a fresh one
    hdr_pack(shm, 0, -1, clock(), used, i)


def load_lenient(shm, off):
    """The lenient runtime (lenient.py), set up with the job's plan."""
    (n,) = U32.unpack_from(shm, off)
    code = marshal.loads(shm[off + 4 : off + 4 + n])
    off += 4 + n
    (n,) = U32.unpack_from(shm, off)
    plan = bytes(shm[off + 4 : off + 4 + n])
    lx = ModuleType("repair_lenient")
    exec(code, lx.__dict__)
    lx.setup(plan, candidate.CAND_FILE, candidate.MODULE)
    return lx


def prune_modules(base):
    """Forget the candidate and every module imported during the case that
    is not from the standard library (helpers next to the target), so that
    the next case imports them afresh."""
    module, test_module, lib = candidate.MODULE, candidate.TEST_MODULE, candidate.LIB_PREFIX
    for name in list(modules):
        if name in base and name != module and name != test_module:
            continue
        m = modules.get(name)
        f = getattr(m, "__file__", None) if m is not None else None
        if name == module or name == test_module or (isinstance(f, str) and f.startswith(lib)):
            del modules[name]
        else:
            base.add(name)
    return len(modules)


def reset_empty_stdin():
    """A fresh empty stdin: a case closed the last one."""
    global EMPTY_STDIN
    EMPTY_STDIN = make_stdin("")
