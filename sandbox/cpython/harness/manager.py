"""The manager: forked once by the forker, never forking. It talks to Go,
compiles each candidate and puts its marshalled code into the shared
memory, asks the forker for children (or wakes the child a pure candidate
left waiting), enforces the per-case deadlines from outside the child and
sends the records back.

Owns the manager's timing (the limits' WALL_FACTOR, WALL_SLACK and
SETUP_CPU, HEARTBEAT, FORKER_WAIT, and LOOK from the case timeouts), LENIENT_SOURCE, REUSE (whether pure candidates
may reuse a child) and START, the first case of the running chunk; the
three from the suite are set by configure.
"""
import gc
import marshal
import os
import select
import _signal as signal  # signal's C half: the module itself imports enum, a tenth of a server's start
import sys
from time import clock_gettime, monotonic

from . import candidate, collected, partial, real_pytest
from .candidate import compile_joined
from .protocol import (
    CALLS_MAX, CAP, CHILD_DONE, CHILD_GO, CHILD_QUIT, CODE_OFF, CPU_SECS, CUR, DETAIL_MAX, DONE, DONE_KEPT, DONE_PARTIAL,
    DONE_SELECTED, DONE_WIDE, EXIT_MEMORY, FORK, FORK_AFTER, FORK_AGAIN, FORK_ENDED, FORK_FIRST, FORK_GUARD, FORK_IMPURE, FORK_OFF,
    FORK_SERVED, FORK_SPARE, FORK_WIPE, FORKED, HDR, INJ_MAX, JOB, JOB_OFF, JOB_KEEP, JOB_NO_GLOBALS, JOB_KEPT, JOB_ORIGINAL, JOB_PARTIAL, JOB_PURE, JOB_RECORD, MAX_SERVED, MLE, MSG,
    MSG_CHUNK, MSG_COMPILE, MSG_DONE, MSG_HELLO, MSG_PING, MSG_QUIT, PING, MSG_RUN, MSG_DELTA, MSG_WALL, PROGRESS, RANGE, REAPED,
    REC, RTE, RUN_ABANDON, RUN_COVERAGE, RUN_LENIENT, RUN_PARTIAL, RUN_RANGE, RUN_RECORD, RUN_SELECT, RUN_WALL, SHM_SIZE,
    SPAN, TLE, U32, VALUE_MAX, WALL,
)
from .wire import put_record, read_msg, send
from .purity import pure_code

ModuleType = type(sys)

# A selection's bytes (RUN_SELECT) as the child reads them (1: run the
# case): bit 1, the case reaches an edit; bit 2, a changed definition.
REACHES_EDIT = bytes(b & 1 for b in range(256))
REACHES_DEFINITION = bytes(b >> 1 & 1 for b in range(256))

# Go's sandbox.CaseWall and its constants set these (set_limits).
# A case's limit is CPU time: the case's timeout (the suite's, or the
# search's cap below it), counted on the child's CPU clock, so that a busy
# machine, which slows a case down without making it use more CPU, times
# no case out. A case that sleeps or waits uses none: WALL_FACTOR times its
# timeout plus WALL_SLACK of wall time, not counting the time the child
# waited for a CPU, is its backstop.
WALL_FACTOR = 5.0
WALL_SLACK = 1.0  # seconds
# A child's setup before its first case (under pytest: importing the test
# file, and with it the target and its package, and collecting) is charged
# to neither case: it may use SETUP_CPU seconds of CPU time, or
# SETUP_FACTOR times what the server's own setup used, whichever is more
# (configure), with the same kind of wall backstop.
SETUP_CPU = 10.0
SETUP_FACTOR = 5.0
HEARTBEAT = 1.0  # seconds between pings while a candidate runs
LOOK = HEARTBEAT  # seconds between the manager's looks at a running child (configure)
FORKER_WAIT = 5.0  # seconds the forker may take to reap a killed child

LENIENT_SOURCE = ""  # lenient.py, compiled at the first lenient candidate
REUSE = True  # pure candidates may run in the child of the previous one
PYTEST_REUSE = False  # under pytest, candidates that keep the session isolated may (collected.keeps_isolation)
START = [0]  # the first case of the running chunk


def set_limits(limits):
    """Sets the time limits' constants from Go's (the suite's "limits")."""
    global SETUP_CPU, SETUP_FACTOR, WALL_FACTOR, WALL_SLACK
    SETUP_CPU = float(limits.get("setup_cpu") or SETUP_CPU)
    SETUP_FACTOR = float(limits.get("setup_factor") or SETUP_FACTOR)
    WALL_FACTOR = float(limits.get("wall_factor") or WALL_FACTOR)
    WALL_SLACK = float(limits.get("wall_slack") or WALL_SLACK)


def configure(cases, lenient_source, reuse, pytest_reuse=False, setup_cpu=0.0):
    """Sets the manager's configuration from the case table, the lenient
    runtime's source, whether pure candidates (under pytest: those that
    keep the session isolated) may reuse a child, and the CPU seconds the
    server's own setup took (SETUP_CPU)."""
    global LOOK, LENIENT_SOURCE, REUSE, PYTEST_REUSE, SETUP_CPU
    SETUP_CPU = max(SETUP_CPU, SETUP_FACTOR * setup_cpu)
    # The manager looks at a running child at least twice per shortest
    # timeout: it learns that a case started only by looking.
    LOOK = min([HEARTBEAT] + [c.timeout / 2 for c in cases if c.timeout > 0])
    LENIENT_SOURCE = lenient_source
    REUSE = reuse
    PYTEST_REUSE = pytest_reuse


CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid):
    """User plus system CPU seconds of process pid, or None.

    Read from the process's CPU-time clock (Linux: clockid ((~pid) << 3) | 2,
    CPUCLOCK_SCHED of the whole process, see clock_getcpuclockid(3)), which
    is exact; /proc/PID/stat counts in clock ticks (10 ms), too coarse for a
    cap of a few milliseconds."""
    try:
        return clock_gettime(((~pid) << 3) | 2)
    except (OSError, OverflowError, ValueError, AttributeError):
        pass
    try:
        fd = os.open("/proc/%d/stat" % pid, os.O_RDONLY)
        try:
            data = os.read(fd, 4096)
        finally:
            os.close(fd)
        fields = data[data.rindex(b")") + 2 :].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, ValueError, IndexError):
        return None


def run_delay(pid):
    """The seconds process pid has waited for a CPU (Linux schedstat of
    its main thread), or None."""
    try:
        fd = os.open("/proc/%d/schedstat" % pid, os.O_RDONLY)
        try:
            data = os.read(fd, 128)
        finally:
            os.close(fd)
        return int(data.split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


def limit_detail(why):
    """The detail of a case that the manager ended at a limit: why is
    (kind, seconds) as supervise recorded it."""
    kind, secs = why
    if kind == "cpu":
        return "timed out after %gs of CPU time (--case-timeout raises the limit)" % secs
    if kind == "cap":
        return "timed out after %gs of CPU time (the search's cap)" % secs
    if kind == "wallcap":
        return "timed out after %.3gs of wall-clock time (the search's cap)" % secs
    if kind == "setup":
        return "timed out before its first test, after %gs of CPU time importing and collecting the tests" % secs
    if kind == "setupwall":
        return ("timed out before its first test, after %.3gs of wall-clock time importing and collecting the tests"
                % secs)
    return "timed out after %.3gs of wall-clock time, asleep or waiting (--case-timeout raises the limit)" % secs


def death(how, status, c, why):
    """The verdict and detail of a case (c) during which the child ended;
    why is what ended it at a limit (supervise's), when how is
    "timeout"."""
    if how == "timeout":
        return TLE, limit_detail(why)
    if status < 0:
        return RTE, "lost the child process"
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU:
            return TLE, "CPU time limit exceeded"
        try:
            from signal import Signals  # the names: rare, so imported here

            name = Signals(sig).name
        except ValueError:
            name = str(sig)
        return RTE, "killed by signal %s" % name
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1
    if code == EXIT_MEMORY:
        return MLE, "MemoryError"
    return RTE, "exited with status %d" % code


class Manager:
    """The manager's loop (serve) and its state: the pipes to the forker
    and to a reused child, the shared memory, the case table, the child
    kept for the next pure candidate."""

    def __init__(self, to_forker, from_forker, go, done, shm, cases):
        self.shm = shm
        self.cases = cases
        self.to_forker = to_forker
        self.from_forker = from_forker
        self.go = go
        self.done = done
        self.poller = select.poll()
        self.poller.register(from_forker, select.POLLIN)
        self.poller.register(done, select.POLLIN)
        self.idle = 0  # pid of a child waiting for the next pure candidate, or a spare
        self.spare = False  # the idle child is a spare: forked ahead, nothing ran in it
        self.job = 0
        self.reused = 0  # of the current candidate: chunks run in an idle child
        self.forks = 0  # of the current candidate: fresh children
        self.lx = None  # the lenient runtime, loaded at the first lenient candidate
        self.first_fork = True  # no fresh child of the running candidate yet
        self.lx_code = b""
        self.cap = 0.0
        self.abandon = False
        self.walls = ()  # the wall caps of the cases (MSG_WALL)
        self.cpus = ()  # the caps of the cases' CPU time (MSG_WALL's second half), or ()
        self.cpus_min = 0.0  # the least of them above 0 (0: none)
        self.wall = ()  # of the running candidate: walls, or () without RUN_WALL
        self.cpu = ()  # of the running candidate: cpus, or () without RUN_WALL
        self.killed = ("cpu", 0.0)  # the limit that ended the child killed last: its kind and seconds
        # Why the next candidate finds no child waiting (FORK_*), the
        # candidates the running child has served, and of the current
        # candidate: why it cannot reuse a child (FORK_OFF, not pure;
        # 0: it may), its children so far, why its first fresh one was
        # forked (0: none yet).
        self.gone = FORK_FIRST
        self.served = 0
        self.cause = 0
        self.children = 0
        self.why = 0
        self.warm = False  # partial.warm ran

    def forker_msg(self):
        b = b""
        while len(b) < MSG.size:
            x = os.read(self.from_forker, MSG.size - len(b))
            if not x:
                raise EOFError("the forker is gone")
            b += x
        return MSG.unpack(b)

    def retire(self):
        """Lets an idle child exit and waits until the forker reaped it."""
        if not self.idle:
            return
        self.idle = 0
        self.spare = False
        os.write(self.go, CHILD_QUIT)
        kind, _ = self.forker_msg()
        if kind != REAPED:
            raise ValueError("forker protocol")

    def run_child(self, reuse):
        """Runs the job in SHM in the idle child (reuse) or a fresh one,
        enforcing the deadlines of its cases. Returns ("done", 0) when the
        child finished and waits for the next pure candidate, else ("exit"
        or "timeout", wait status) once the forker has reaped it and
        everything it left."""
        fork_time = monotonic()
        why = FORK_AGAIN if self.children else self.cause or self.gone
        self.children += 1
        if self.spare and self.first_fork:
            # The candidate's first fresh child, forked ahead (in an
            # emptied working directory, and nothing ran in it since).
            pid = self.idle
            self.idle = 0
            self.spare = False
            self.forks += 1
            self.served = 1
            if not self.why:
                self.why = why
            self.first_fork = False
            os.write(self.go, CHILD_GO)
            how, status = self.supervise(pid, fork_time, False)
            if how != "exit" or HDR.unpack_from(self.shm, 0)[3] != START[0] or CUR.unpack_from(self.shm, 0)[0] != -1:
                return how, status
            # Gone before it started: a fresh one, as it would have been.
            self.forks -= 1
            self.first_fork = True
            fork_time = monotonic()
        elif reuse and self.idle and not self.spare:
            pid = self.idle
            self.idle = 0
            self.reused += 1
            self.served += 1
            os.write(self.go, CHILD_GO)
            how, status = self.supervise(pid, fork_time, False)
            if how != "exit" or HDR.unpack_from(self.shm, 0)[3] != START[0] or CUR.unpack_from(self.shm, 0)[0] != -1:
                return how, status
            # The idle child was gone before it started: use a fresh one.
            fork_time = monotonic()
            why = FORK_ENDED
        self.retire()
        self.forks += 1
        self.served = 1
        if not self.why:
            self.why = why
        # The first fresh child of a candidate starts in an emptied
        # working directory (FORK_WIPE); its later children keep what the
        # candidate's earlier cases wrote there, as one process would.
        os.write(self.to_forker, FORK_WIPE if self.first_fork else FORK)
        self.first_fork = False
        kind, pid = self.forker_msg()
        if kind != FORKED:
            raise ValueError("forker protocol")
        return self.supervise(pid, fork_time)

    def spawn_spare(self, then=None):
        """Forks the next candidate's first child ahead, when no child
        waits: while Go prepares that candidate (at a server's start,
        while it ranks and builds the search; after a candidate that kept
        no child), not on its way. then, when given, is called while the
        forker forks (the server's hello: Go's next step then overlaps the
        fork, which on a large module takes milliseconds)."""
        if self.idle:
            if then is not None:
                then()
            return
        os.write(self.to_forker, FORK_SPARE)
        if then is not None:
            then()
        kind, pid = self.forker_msg()
        if kind != FORKED:
            raise ValueError("forker protocol")
        self.idle, self.spare = pid, True

    def supervise(self, pid, fork_time, fresh=True):
        """Watches the child pid (forked at fork_time, or reused when not
        fresh) until it finishes the job, ends or is killed at a limit.

        The child is in one stage at a time: its setup (until it writes
        its first case into the header), each case, and its wind-down
        after the last. A stage has a limit of CPU time (lim), counted on
        the child's CPU clock from cpu0 (read when the manager first sees
        the stage; a fresh child's clock starts at 0), and a wall backstop
        (wall_end) that moves by the time the child waited for a CPU. The
        manager does not read the CPU clock while a case runs: it looks
        when the case could have used its limit (cpu_end: a thread busy
        since the start) and then waits for what is left."""
        seen = None
        shm, cases = self.shm, self.cases
        n = len(cases)
        unpack = CUR.unpack_from
        how = "exit"
        killed = 0.0
        inf = float("inf")
        cap = self.cap
        lim = SETUP_CPU
        cpu0 = 0.0 if fresh else cpu_seconds(pid)
        cpu_end = fork_time + lim
        wall_kind, wall_secs = "setupwall", WALL_FACTOR * lim + WALL_SLACK
        wall_end = fork_time + wall_secs
        # The run delay is read when the backstop is a wall cap of the
        # search's (tight: counted from the case's start) or once the
        # stage outlives its CPU limit in wall time (the backstop, five
        # times that, loses at most one limit's delay): not for every
        # stage, whose /proc read would cost every candidate.
        delay0 = 0.0 if fresh else None
        cpu_kind = "setup"
        deadline = min(cpu_end, wall_end)
        started = False  # the child wrote a case
        cur = -1
        last_ping = fork_time
        while True:
            if how == "exit":
                h = unpack(shm, 0)
                if h != seen:
                    seen = h
                    cur, t0 = h
                    if 0 <= cur < n and t0 < fork_time:
                        # A torn read: the child, preempted while writing
                        # the header, has written the case but not yet its
                        # start (still the reset value). Look again soon.
                        seen = None
                        deadline = min(monotonic() + 0.001, cpu_end, wall_end)
                    elif 0 <= cur < n:
                        # The child writes the header: a start in the
                        # future would put the deadline off.
                        started = True
                        t0 = min(t0, monotonic())
                        t = cases[cur].timeout
                        lim, cpu_kind = t, "cpu"
                        c = self.cpu[cur] if self.cpu else 0.0
                        if not 0 < c < cap:
                            c = cap  # the search's cap of every case, when it has none of its own below that
                        if 0 < c < t:
                            lim, cpu_kind = c, "cap"
                        cpu0 = cpu_seconds(pid)
                        cpu_end = t0 + lim if lim > 0 else inf
                        wall_secs, wall_kind = WALL_FACTOR * t + WALL_SLACK, "wall"
                        w = self.wall[cur] if self.wall else 0.0
                        if 0 < w < wall_secs:
                            # The search's wall cap, whatever the CPU time
                            # (a case that sleeps uses none).
                            wall_secs, wall_kind = w, "wallcap"
                        wall_end = t0 + wall_secs if t > 0 else inf
                        delay0 = run_delay(pid) if wall_kind == "wallcap" else None
                    elif started:
                        # Past its last case (or a case boundary where it
                        # ends): what is left is the setup's kind of work.
                        now = monotonic()
                        lim, cpu_kind = SETUP_CPU, "setup"
                        cpu0 = cpu_seconds(pid)
                        cpu_end = now + lim
                        wall_secs, wall_kind = WALL_FACTOR * lim + WALL_SLACK, "setupwall"
                        wall_end = now + wall_secs
                        delay0 = None
                    if seen is not None:
                        deadline = min(cpu_end, wall_end)
            now = monotonic()
            if how == "exit" and now >= deadline:
                if unpack(shm, 0) != seen:
                    continue  # read while the child was writing
                if delay0 is None:
                    delay0 = run_delay(pid)
                if now >= wall_end:
                    # The backstop does not count the time the child
                    # waited for a CPU (a loaded machine).
                    d = run_delay(pid)
                    if d is not None and delay0 is not None and d - delay0 > 0.0005:
                        wall_end += d - delay0
                        delay0 = d
                        deadline = min(cpu_end, wall_end)
                        continue
                    self.killed = (wall_kind, wall_secs)
                else:
                    # The CPU time the manager saw being used counts: a
                    # stage first seen late gets up to one more limit.
                    cpu = cpu_seconds(pid)
                    if cpu is not None and cpu0 is not None:
                        left = lim - (cpu - cpu0)
                        if left > 0.01 * lim:
                            cpu_end = now + left
                            deadline = min(cpu_end, wall_end)
                            continue
                    self.killed = (cpu_kind, lim)
                for f in (os.killpg, os.kill):
                    try:
                        f(pid, signal.SIGKILL)
                    except OSError:
                        pass
                how = "timeout"
                killed = now
                continue
            if how == "timeout" and now - killed > FORKER_WAIT:
                # The forker reaps a killed child at once, unless it was
                # stopped (without a PID namespace a candidate can stop
                # it): give up on this server.
                raise EOFError("the forker did not reap a killed child in %gs" % FORKER_WAIT)
            wait = HEARTBEAT if how == "timeout" else min(deadline - now, LOOK)
            if how == "exit" and (cap > 0 or self.cpu):
                # Look at the running case often enough to hold the caps.
                wait = min(wait, min(c for c in (cap, self.cpus_min if self.cpu else 0.0) if c > 0) / 2)
            ready = self.poller.poll(int(wait * 1000) + 1)
            for fd, _ in ready:
                if fd == self.from_forker:
                    kind, status = self.forker_msg()
                    if kind != REAPED:
                        raise ValueError("forker protocol")
                    return how, status
            for fd, _ in ready:
                if fd == self.done and os.read(self.done, 1) == CHILD_DONE and how == "exit":
                    self.idle = pid
                    return "done", 0
            if now - last_ping >= HEARTBEAT:
                send(MSG_PING, PING.pack(self.children, cur))
                last_ping = now

    def evaluate(self, src, cov, plan=None, first=0, end=None, spans=None, sel=None, record=False):
        """Runs cases first..end-1 (end None: to the last) of candidate
        src, sending their records: with spans (its changed definitions)
        compiled over the original's code when it can be (partial.py),
        and then, with sel (one byte per case), only the selected cases
        when its edits keep every scope and the code is pure; with record,
        test cases record their calls into the target (record.py), the
        candidate compiled whole. Returns how it ran (DONE_*)."""
        cand = candidate.CAND_FILE
        part = None
        if spans and plan is None and not cov and not record and not candidate.MULTI:
            part = partial.build(src, spans)
        try:
            if part is not None:
                code = part.code
            elif partial.BASE_CODE is not None and src == partial.BASE_SRC:
                # The original (its coverage run, the check of the
                # original): compiled once, when the server started.
                code = partial.BASE_CODE
            elif candidate.MULTI:
                code = compile_joined(src)
                plan = None  # lenient runs take one file
            else:
                code = compile(src, cand, "exec", dont_inherit=True)
        except BaseException as e:  # SyntaxError, ValueError (NUL bytes), RecursionError, MemoryError...
            if isinstance(e, SyntaxError):
                msg = "%s: %s" % (type(e).__name__, e.msg)
                if e.lineno:
                    msg += " (line %d)" % e.lineno
                    if candidate.MULTI and e.filename and e.filename != cand:
                        msg = msg[:-1] + " of %s)" % os.path.basename(e.filename)
            else:
                msg = "%s: %s" % (type(e).__name__, e)
            e.__traceback__ = None
            send(MSG_COMPILE, msg.encode("utf-8", "replace")[:2000])
            return 0
        lx = None
        if plan is not None:
            code, lx = self.lenient(src, code, plan)
        shm, cases = self.shm, self.cases
        n = len(cases) if end is None else min(end, len(cases))
        self.cause = FORK_OFF
        reuse, mask = 0, 0
        isolated = None  # under pytest: collected.keeps_isolation, once asked
        if REUSE and not cov and not record and lx is None:
            why = []
            if part is not None:
                reuse, mask = partial.pure(part, None)
            elif code is partial.BASE_CODE:
                reuse, mask = partial.pure_base(None)  # from its parts, found once
            else:
                reuse, mask = pure_code(code, why=why)
            self.cause = 0
            if not reuse:
                if not why:
                    pure_code(code, why=why)  # the whole module's reason
                self.cause = why[0] if why else FORK_IMPURE
        elif PYTEST_REUSE and part is not None and not cov and not record and lx is None:
            # Under pytest: a candidate that keeps the session isolated
            # may run in the child of the previous one, which then ran
            # only plain tests on the original's items (child.py).
            isolated = collected.keeps_isolation(part, src, spans)
            reuse, mask = isolated
            self.cause = 0 if reuse else FORK_IMPURE
        selected = sel is not None and part is not None and lx is None and not cov and len(sel) == len(cases)
        wide = False
        if selected:
            # A case's byte: bit 1, it reaches an edit; bit 2, a changed
            # definition. Where the edits change a name's scope in the
            # functions they change, every case that calls one of them may
            # run differently; a changed class body, every case.
            if part.same_scopes:
                sel = sel.translate(REACHES_EDIT)
            elif part.functions:
                sel, wide = sel.translate(REACHES_DEFINITION), True
                selected = 0 in sel  # (all: no selection)
            else:
                selected = False
        if selected and real_pytest.PYTEST_MODE:
            # Under pytest: on the items collected once, in an isolated
            # session, with code that stores no state a later test reads,
            # in a reused child or a fresh one. Otherwise (a session whose
            # tests may leave state for one another, or a candidate that
            # may store some) only in a fresh child, which runs the
            # selected tests as a run of pytest on those node ids would:
            # Go selects the tests the original fails too, and the check
            # of a delivered fix runs every test (docs/engines.md).
            if isolated is None:
                isolated = collected.keeps_isolation(part, src, spans)
            selected = isolated[0] != 0 or not reuse
        elif selected:
            selected = partial.SELECT_OK and partial.pure(part, True)[0] != 0
        # The original (its coverage run, the check of the original): every
        # child has its code (partial.BASE_CODE), none is marshalled.
        base = part is None and code is partial.BASE_CODE
        blob = b"" if base else marshal.dumps(part.repl if part is not None else code)
        L = src.count(b"\n") + 2 if cov else 0
        end = CODE_OFF + len(blob)
        lx_off = 0
        if lx is not None:
            lx_off = (end + 7) & ~7
            end = lx_off + len(lx)
        sel_off = 0
        if selected:
            sel_off = end
            end = sel_off + len(sel)
        covoff = (end + 7) & ~7
        recbase = (covoff + L + 7) & ~7
        maxrec = (REC.size + 2 + DETAIL_MAX + 4 + 4 * L + PROGRESS.size + CPU_SECS.size
                  + (4 + CALLS_MAX if record else 0))
        cap = SHM_SIZE
        # Room for one record with the largest observation (a value and
        # the arguments, or an output), and a few small ones.
        if recbase + 2 * VALUE_MAX + 64 + 4 * (maxrec + (INJ_MAX if lx is not None else 0)) > cap:
            send(MSG_COMPILE, b"the candidate is too large for the sandbox")
            return 0
        self.first_fork = True
        shm[CODE_OFF : CODE_OFF + len(blob)] = blob
        if lx is not None:
            shm[lx_off : lx_off + len(lx)] = lx
        if selected:
            shm[sel_off : sel_off + len(sel)] = sel
        else:
            sel = None
        self.job += 1
        jflags = JOB_PARTIAL if part is not None else JOB_ORIGINAL if base else 0
        if cov and lx is None and not candidate.MULTI and not real_pytest.PYTEST_MODE:
            level = partial.BASE_LEVEL if base else pure_code(code, checked=True)[0]
            if level:
                jflags |= JOB_PURE
            if level >= 2:
                jflags |= JOB_KEEP | (JOB_NO_GLOBALS if level == 3 else 0)
        if record:
            jflags |= JOB_RECORD
        JOB.pack_into(shm, JOB_OFF, len(blob), L, covoff, recbase, cap, reuse, self.job, lx_off, mask, n, jflags, sel_off)

        def next_case(i):
            if sel is not None:
                while i < n and not sel[i]:
                    i += 1
            return i

        start = next_case(first)
        while start < n:
            START[0] = start
            HDR.pack_into(shm, 0, -1, 0.0, recbase, start)
            if cov:
                shm[covoff : covoff + L] = bytes(L)
            how, status = self.run_child(reuse)
            _, _, used, nxt = HDR.unpack_from(shm, 0)
            cur, t0 = CUR.unpack_from(shm, 0)
            if not (recbase <= used <= cap and start <= nxt <= n):
                used, nxt = recbase, start  # the header is garbage: trust nothing
            nxt = next_case(nxt)
            if how != "done":
                # Why the next candidate will find no child waiting.
                if not reuse:
                    self.gone = FORK_AFTER
                elif how == "timeout" or nxt < n or status != 0:
                    self.gone = FORK_ENDED
                elif self.served >= MAX_SERVED:
                    self.gone = FORK_SERVED
                else:
                    self.gone = FORK_GUARD
            # A child killed in its setup: every fresh child would set up
            # the same way, so the cases after are not run.
            setup_out = how == "timeout" and cur < 0 and nxt == start and self.killed[0].startswith("setup")
            if how != "done" and nxt < n and (how == "timeout" or cur == nxt or nxt == start):
                if used > cap - maxrec:
                    used, nxt = recbase, start
                verdict, detail = death(how, status, cases[nxt], self.killed)
                secs = monotonic() - t0 if cur == nxt else 0.0
                if not 0 <= secs < 1e6:
                    secs = 0.0
                covmv = memoryview(shm)[covoff : covoff + L] if cov else None
                used = put_record(shm, used, nxt, verdict, secs, b"", detail, covmv)
                nxt = next_case(nxt + 1)
            send(MSG_CHUNK, memoryview(shm)[recbase:used])
            start = nxt
            if how == "timeout" and (self.abandon or setup_out) and start < n:
                # The search's shortcut: a candidate that timed out once is
                # not run further; its other cases count as timed out too.
                detail = "not run: the tests' setup timed out" if setup_out else "not run: an earlier case timed out"
                used = recbase
                for i in range(start, n):
                    if sel is not None and not sel[i]:
                        continue
                    if used > cap - maxrec:
                        send(MSG_CHUNK, memoryview(shm)[recbase:used])
                        used = recbase
                    used = put_record(shm, used, i, TLE, 0.0, b"", detail, None)
                send(MSG_CHUNK, memoryview(shm)[recbase:used])
                break
        kept = DONE_KEPT if JOB.unpack_from(shm, JOB_OFF)[10] & JOB_KEPT else 0
        how = (DONE_SELECTED | (DONE_WIDE if wide else 0)) if sel is not None else 0
        return how | (DONE_PARTIAL if part is not None else 0) | kept

    def lenient(self, src, code, plan):
        """The candidate instrumented for lenient mode (lenient.py), and
        what a child needs to run it: the runtime's marshalled code and the
        plan, each after its u32 length."""
        if self.lx is None:
            rt = compile(LENIENT_SOURCE, "<repair-lenient>", "exec", dont_inherit=True)
            self.lx = ModuleType("repair_lenient")
            exec(rt, self.lx.__dict__)
            self.lx_code = marshal.dumps(rt)
        try:
            code = self.lx.instrument(src, candidate.CAND_FILE)
        except Exception:
            pass  # attribute reads stay as they are; names and imports are still lenient
        return code, b"".join((U32.pack(len(self.lx_code)), self.lx_code, U32.pack(len(plan)), plan))

    def serve(self, hello, rewritten="", notes=None):
        """Says hello (with hello's fields added, rewritten: the test
        file's assertions this server rewrote, JSON, and notes: what keeps
        candidates out of a reused child, for the user: plugins, the
        pytest plugins that act on tests' runs, by name, how many;
        not_isolated, why the tests may leave state for one another) and
        serves Go's requests until Go closes the pipe."""
        gc.enable()
        fields = ['"version": "%d.%d.%d"' % sys.version_info[:3]]
        fields += ['"%s": %s' % (k, "true" if v else "false") for k, v in hello.items()]
        fields.append('"setup_cpu": %r' % float(SETUP_CPU))
        if rewritten:
            fields.append('"rewritten": ' + rewritten)
        if notes and any(notes.values()):
            import json

            fields += ['"%s": %s' % (k, json.dumps(v)) for k, v in notes.items() if v]
        msg = ("{%s}" % ", ".join(fields)).encode()
        self.spawn_spare(lambda: send(MSG_HELLO, msg))
        while True:
            try:
                kind, payload = read_msg()
            except EOFError:
                return
            if kind == MSG_RUN or kind == MSG_DELTA:
                # A flags byte, the cap of every case's timeout (seconds, a
                # double; 0: the suite's timeouts), with RUN_RANGE the
                # first case and the end, with RUN_LENIENT the plan after
                # its u32 length, then the source.
                # with RUN_PARTIAL a u32 count and the changed
                # definitions, with RUN_SELECT a byte per case, then the
                # source.
                self.reused = self.forks = self.children = self.why = 0
                flags = payload[0]
                (self.cap,) = CAP.unpack_from(payload, 1)
                self.abandon = bool(flags & RUN_ABANDON)
                self.wall = self.walls if flags & RUN_WALL else ()
                self.cpu = self.cpus if flags & RUN_WALL else ()
                off = 1 + CAP.size
                first, end = 0, None
                if flags & RUN_RANGE:
                    first, end = RANGE.unpack_from(payload, off)
                    off += RANGE.size
                plan = None
                if flags & RUN_LENIENT:
                    (k,) = U32.unpack_from(payload, off)
                    plan = payload[off + 4 : off + 4 + k]
                    off += 4 + k
                spans = None
                if flags & RUN_PARTIAL:
                    (k,) = U32.unpack_from(payload, off)
                    off += 4
                    spans = [SPAN.unpack_from(payload, off + j * SPAN.size) for j in range(k)]
                    off += k * SPAN.size
                sel = None
                if flags & RUN_SELECT:
                    sel = payload[off : off + len(self.cases)]
                    off += len(self.cases)
                src = payload[off:]
                if kind == MSG_DELTA:
                    # Only the changed definitions' text: the rest is the
                    # original's (Go checked), not sent again.
                    src = partial.rebuild(src, spans)
                how = self.evaluate(src, bool(flags & RUN_COVERAGE), plan, first, end, spans, sel,
                                    bool(flags & RUN_RECORD))
                send(MSG_DONE, DONE.pack(self.reused, self.forks, 1 if self.idle else 0, how, self.why))
                self.spawn_spare()
                if not self.warm:
                    # After the first job (the original's run), while Go
                    # ranks and prepares the search.
                    self.warm = True
                    if not real_pytest.PYTEST_MODE:
                        partial.warm(REUSE)
            elif kind == MSG_WALL:
                k = len(payload) // WALL.size
                caps = tuple(WALL.unpack_from(payload, j * WALL.size)[0] for j in range(k))
                n = len(self.cases)
                if k != n and k != 2 * n:
                    raise ValueError("%d caps for %d cases" % (k, n))
                # The wall caps, then (when twice as many) the caps of
                # the cases' CPU time.
                self.walls, self.cpus = caps[:n], caps[n:]
                self.cpus_min = min([c for c in self.cpus if c > 0] or [0.0])
            elif kind == MSG_QUIT:
                return
            else:
                raise ValueError("unknown request %r" % kind)
