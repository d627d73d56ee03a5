"""The wire format of the fork server, spelled once.

Owns every constant that two processes must agree on: the messages
between Go and the manager, the run request's flags, the records (their
layout, flags and statuses), the layout of the shared memory between the
manager and the child, and the forker's reports. docs/engines.md ("The
cpython harness protocol") is the same table; TestProtocolTable (Go)
checks that table, the constants below and the Go side's constants
against one another. Every name here is a constant: the other modules
import them by name.

Also the framing of the messages (read_msg, send) and the writing of a
record into the shared memory (put_record).
"""
import array
import os
from _thread import allocate_lock
from itertools import compress
import struct
import sys

IN_FD = int(sys.argv[1])  # Go's requests
OUT_FD = int(sys.argv[2])  # the server's answers

# ---- messages ----------------------------------------------------------------
#
# Go and the manager exchange messages: a u32 length (of the kind byte and
# the payload), the kind, the payload.

MSG_MODULES = b"M"  # Go → bootstrap, first: the harness's code (u32 n, n bytes of code, the sources)
MSG_CODE = b"K"  # bootstrap → Go: the code it compiled, for Go to keep (empty: it ran Go's)
MSG_ORIGINAL = b"O"  # Go → server, before the suite: the original's code Go kept; server → Go, first: the code it compiled
MSG_SUITE = b"S"  # Go → server, once: the suite as JSON
MSG_RUN = b"R"  # Go → server: a candidate (flags, CAP, [RANGE], [u32 n, plan], source)
MSG_DELTA = b"D"  # Go → server: MSG_RUN with RUN_PARTIAL, the changed definitions' text in the place of the source
MSG_QUIT = b"Q"  # Go → server: exit (Go closes the pipe instead)
MSG_HELLO = b"H"  # server → Go: ready, JSON {version, pid_ns, undumpable, delta, setup_cpu (the CPU seconds a child's setup may take), rewritten (the test file's assertions, when it rewrote them), plugins (the pytest plugins that act on the run of tests plain but for them: by name, how many), not_isolated (why the tests may leave state for one another)}
MSG_PING = b"P"  # server → Go: still busy (every HEARTBEAT), PING's progress; while it starts, the stage it progressed in (alive.py)
MSG_CHUNK = b"C"  # server → Go: records of finished cases
MSG_COMPILE = b"E"  # server → Go: the candidate does not compile: the message
MSG_DONE = b"D"  # server → Go: the candidate is finished: DONE
MSG_FATAL = b"X"  # server → Go: the server failed: the message (then it exits)
MSG_LIST = b"L"  # server → Go, collect mode only: what pytest collects, as JSON
MSG_WALL = b"W"  # Go → server: the cases' wall caps for runs with RUN_WALL (WALL each, 0: none)

# A run request: a flags byte, the cap of the case timeouts (seconds; 0:
# the suite's own), with RUN_RANGE the case range, with RUN_LENIENT a u32
# length and the lenient plan, with RUN_PARTIAL a u32 count and the
# changed definitions' SPANs, with RUN_SELECT one byte per case (1: run
# it), then the source.
RUN_COVERAGE = 1  # report the lines each case executed
RUN_ABANDON = 2  # stop at the first case that times out
RUN_LENIENT = 4  # a lenient run (package lenient): the plan precedes the source
RUN_RANGE = 8  # run the cases first..end-1 only
RUN_RECORD = 16  # record the calls test cases make into the target (record.py)
RUN_PARTIAL = 32  # the definitions the candidate changes follow (partial.py)
RUN_SELECT = 64  # the cases the candidate must run follow (the others may be skipped)
RUN_WALL = 128  # cap each case's wall time too (MSG_WALL)
CAP = struct.Struct("<d")  # the cap of the case timeouts
RANGE = struct.Struct("<II")  # first case, end
SPAN = struct.Struct("<IIII")  # a changed definition: its bytes in the candidate, in the original
WALL = struct.Struct("<d")  # a case's wall cap (seconds)
# a D message: chunks run in a reused child, fresh children, a child kept,
# how it ran (DONE_*), why its first fresh child was forked (FORK_*; 0: none)
DONE = struct.Struct("<IIIII")
DONE_SELECTED = 1  # only the selected cases ran
DONE_PARTIAL = 2  # compiled over the original's code
DONE_KEPT = 4  # ran on the original's import the child kept, its functions' code swapped (candidate.kept_original)
# Why a candidate ran in a fresh child rather than in the one the previous
# candidate left waiting: the cpython engine counts each (Stats).
FORK_FIRST = 1  # no child was kept yet: the server's first candidate
FORK_OFF = 2  # this run reuses no child: coverage, a recording, lenient, or a server that never reuses
FORK_NAME = 3  # not pure: a name that reaches the interpreter, the process or a mutable attribute (purity.py)
FORK_IMPORT = 4  # not pure: an import of a module that is not pure or not loaded
FORK_DUNDER = 5  # not pure: a dunder attribute stored, or a dunder name as a string
FORK_STRING = 6  # not pure: a string naming a pure module's mutable attribute, and an import
FORK_IMPURE = 7  # not pure, changed definitions alone (partial.py)
FORK_AFTER = 8  # the previous candidate kept no child: not pure, or its run reuses none
FORK_GUARD = 9  # the guard refused the previous candidate's child (guard.py)
FORK_SERVED = 10  # the previous candidate's child had served MAX_SERVED candidates
FORK_ENDED = 11  # the previous candidate's child ended before its last case: a deadline, a crash, threads left
FORK_AGAIN = 12  # the candidate's own earlier child ended before its last case
MAX_SERVED = 500  # candidates one reused child runs at most

# ---- records -----------------------------------------------------------------
#
# One record per case: REC (case, status, flags, seconds), with a status of
# ST_RETURNED or more the observation (observe.py; fitness.ReadObservation),
# with REC_DETAIL a U16 length and the detail (UTF-8, at most DETAIL_MAX
# bytes), with REC_LINES a U32 count and as many U32 line numbers, with
# REC_INJECTIONS the injections (put_injections), with REC_PROGRESS
# PROGRESS, with REC_CALLS a U32 length and the calls the case made into
# the target (JSON, at most CALLS_MAX bytes; record.py), with REC_CPU
# CPU_SECS. With REC_SAME_LINES (and no REC_LINES) the case executed the
# lines of the record before it in the same message, which are not listed
# again; with REC_LINES_REF (neither of the others) a U16 k: it executed
# the lines of the message's k-th record with REC_LINES (from 0).

REC = struct.Struct("<IBBd")  # case, status, flags, seconds
REC_DETAIL = 1
REC_LINES = 2
REC_INJECTIONS = 4
REC_PROGRESS = 8
REC_CALLS = 16
REC_CPU = 32
REC_SAME_LINES = 64
REC_LINES_REF = 128
CALLS_MAX = 16 << 10  # bytes of a case's recorded calls
PROGRESS = struct.Struct("<HH")  # a failing test function's asserts passed, asserts
CPU_SECS = struct.Struct("<d")  # the CPU time the case used (coverage runs)
U16 = struct.Struct("<H")
U32 = struct.Struct("<I")
DETAIL_MAX = 480  # bytes of a detail
# Room for one case's injections (lenient mode): a u16 count, then per
# injection a u32 line and three u8-length strings (kind, name, class).
INJ_MAX = 2 + 32 * (4 + 3 + 12 + 100 + 16)

# Statuses: below ST_RETURNED a verdict, in fitness.Verdict order (of a
# death or a deadline, the manager's; of a test case, the test's); from
# ST_RETURNED on how a call or I/O case ended, which Go judges.
PASSED, WRONG, TLE, RTE, CE, MLE = range(6)
ST_RETURNED, ST_RAISED, ST_FINISHED = 16, 17, 18

# The kinds of the suite's cases (fitness.Kind).
CALL, IO, TEST = range(3)
KINDS = {"call": CALL, "io": IO, "test": TEST}

# Observations (fitness/value.go): bounds of an encoded value.
VALUE_MAX = 4 << 20  # bytes of an encoded value (and of the arguments)
MAX_DEPTH = 100  # nesting of an encoded value (fitness.MaxDepth)
MATERIALISE_MAX = 10000  # items of a returned iterator (fitness.MaxMaterialise)

# ---- the shared memory ---------------------------------------------------------
#
# An anonymous shared mapping of SHM_SIZE bytes: HDR, written by the child
# (CUR is its first two fields), at 0; JOB, written by the manager, at
# JOB_OFF; the marshalled code at CODE_OFF; then the lenient runtime and
# plan, the coverage bytes (one per line of the candidate, for the running
# case) and the records.

SHM_SIZE = 32 << 20
HDR = struct.Struct("<qdQQ")  # running case (-1: none), its start, records end, next case
CUR = struct.Struct("<qd")  # running case, its start
PING = struct.Struct("<qq")  # MSG_PING's progress: the running candidate's children so far, the case the manager saw run
JOB_OFF = 32
# code length, lines (coverage: > 0), coverage offset, records offset,
# records end, whether the child may serve the next candidate too, job
# number, offset of the lenient runtime and plan (0: not lenient), the
# pure modules the candidate can reach (a mask, see purity.take_snapshots),
# the end of the cases to run (the first is in HDR), JOB_* flags, the
# offset of the selection (one byte per case, 1: run it; 0: no selection)
JOB = struct.Struct("<QQQQQQQQQQQQ")
JOB_PARTIAL = 1  # the code is the original's constants to replace (partial.py)
JOB_PURE = 2  # pure code: every fresh import runs the same lines (a coverage run traces one)
JOB_RECORD = 4  # test cases record their calls into the target (RUN_RECORD)
JOB_KEEP = 8  # with JOB_PURE: no attribute stored, call cases may share one import (run_cases)
JOB_NO_GLOBALS = 16  # with JOB_KEEP: no global name stored or deleted either
JOB_ORIGINAL = 32  # the code is the original's, which the child has (partial.BASE_CODE): none at CODE_OFF
JOB_KEPT = 64  # set by the child: the cases ran on its kept import of the original (candidate.kept_original)
CODE_OFF = 128

# Between the processes of a server, over pipes: the manager asks the
# forker for a child (one byte), the forker reports MSG (its pid, then its
# wait status once it and whatever it left are reaped); a reused child
# waits for one byte from the manager and answers one.
FORK = b"F"  # manager → forker: a fresh child
FORK_WIPE = b"W"  # manager → forker: a fresh child, in an emptied working directory
FORK_SPARE = b"A"  # manager → forker: FORK_WIPE's child, which first waits for CHILD_GO (a spare)
MSG = struct.Struct("<cq")  # forker → manager: a kind and a number
FORKED = b"p"  # MSG: the child's pid
REAPED = b"s"  # MSG: its wait status
CHILD_GO = b"g"  # manager → reused or spare child: the next job is in the shared memory
CHILD_QUIT = b"q"  # manager → reused child: exit
CHILD_DONE = b"d"  # reused child → manager: finished, waiting
EXIT_MEMORY = 0x7D  # exit status of a child that ran out of memory in harness code


def read_exact(n):
    buf = bytearray()
    while len(buf) < n:
        b = os.read(IN_FD, n - len(buf))
        if not b:
            raise EOFError
        buf += b
    return bytes(buf)


def _go_json():
    """json.loads for what Go sends (encoding/json's output: valid JSON,
    no NaN, no surrounding space) with the json package's C scanner alone:
    importing json compiles its regular expressions, a fifth of a server's
    start."""
    try:
        from _json import make_scanner
    except ImportError:
        from json import loads

        return loads

    class Context:
        strict = True
        object_hook = object_pairs_hook = None
        parse_float, parse_int, parse_constant = float, int, float

    scan = make_scanner(Context())

    def loads(data):
        s = data.decode("utf-8") if type(data) is not str else data
        try:
            value, end = scan(s, 0)
        except StopIteration:
            raise ValueError("no JSON value") from None
        if end != len(s):
            raise ValueError("extra data after the JSON value at %d" % end)
        return value

    return loads


go_json = _go_json()


def read_msg():
    (n,) = U32.unpack(read_exact(4))
    if n == 0:
        raise ValueError("empty message")
    body = read_exact(n)
    return body[:1], body[1:]


send_lock = allocate_lock()  # held while a message is written


def send(kind, payload=b""):
    data = b"".join((U32.pack(len(payload) + 1), kind, payload))
    view = memoryview(data)
    with send_lock:  # (a heartbeat's ping goes between two messages, never into one: alive.py)
        while view:
            n = os.write(OUT_FD, view)
            view = view[n:]


_LINES = {}  # a coverage (one byte a line) -> its encoding in a record (put_record)


def encode_lines(covmv):
    """The lines of coverage covmv (one byte a line) as a record lists
    them: a U32 count and the line numbers."""
    raw = covmv.tobytes()
    b = _LINES.get(raw)
    if b is None:
        # Cases mostly take a few paths: each distinct coverage is
        # listed once (a large module's 5,000 lines cost every case
        # ~0.1 ms here).
        b = pack_lines(compress(range(len(raw)), raw))
        if len(_LINES) >= 64:
            _LINES.clear()
        if len(raw) <= 1 << 17:  # (at most 64 of 128 KiB kept)
            _LINES[raw] = b
    return b


def pack_lines(lines):
    """Line numbers (ascending) as a record lists them: a U32 count and
    the numbers."""
    a = array.array("I", lines)
    return U32.pack(len(a)) + a.tobytes()


class Listed:
    """The encoded lines (encode_lines) that records of one message have
    listed, each the k-th such record's: a record of lines listed before
    refers to them (REC_LINES_REF) instead of listing them again. An
    encoding is known by identity: the encoders hand the same object out
    for the same lines, and it is kept here while its index is."""

    __slots__ = ("by_id",)

    def __init__(self):
        self.by_id = {}  # id(encoding) -> (k, encoding)

    def ref(self, lines):
        """The index of lines if a record listed them, else None; then
        the record about to list them gets the next index."""
        got = self.by_id.get(id(lines))
        if got is not None and got[1] is lines:
            return got[0]
        k = len(self.by_id)
        if k < 0xFFFF:
            self.by_id[id(lines)] = (k, lines)
        return None


def put_record(shm, used, i, status, secs, payload, detail, covmv, injections=None, progress=None, calls=None, cpu=None,
               lines=None, ref=None):
    """Appends one record (see decodeRecords in server.go) at used and
    returns the new end: status is a verdict (of a death, or of a test
    case) or an ending (ST_*) whose observation is payload; covmv, with
    coverage, the lines the case executed, or lines their encoding
    (encode_lines), b"" for the lines of the record before it in the same
    message (REC_SAME_LINES); ref instead, the index of the message's
    record that listed them (REC_LINES_REF); progress, of a failing test
    function, is (asserts passed, asserts); calls, the JSON of its calls
    into the target (at most CALLS_MAX bytes); cpu the CPU seconds the
    case used."""
    if lines is None and covmv is not None:
        lines = encode_lines(covmv)
    if ref is not None:
        lines = None
        fl = REC_LINES_REF
    else:
        fl = REC_LINES if lines else REC_SAME_LINES if lines is not None else 0
    fl |= ((REC_DETAIL if detail else 0) | (REC_INJECTIONS if injections is not None else 0)
           | (REC_PROGRESS if progress else 0) | (REC_CALLS if calls else 0) | (REC_CPU if cpu is not None else 0))
    REC.pack_into(shm, used, i, status, fl, secs)
    used += REC.size
    if payload:
        shm[used : used + len(payload)] = payload
        used += len(payload)
    if detail:
        b = detail.encode("utf-8", "replace")
        if len(b) > DETAIL_MAX:
            b = b[:DETAIL_MAX].decode("utf-8", "ignore").encode("utf-8")
        U16.pack_into(shm, used, len(b))
        shm[used + 2 : used + 2 + len(b)] = b
        used += 2 + len(b)
    if lines:
        shm[used : used + len(lines)] = lines
        used += len(lines)
    elif ref is not None:
        U16.pack_into(shm, used, ref)
        used += 2
    if injections is not None:
        used = put_injections(shm, used, injections)
    if progress:
        PROGRESS.pack_into(shm, used, min(progress[0], 0xFFFF), min(progress[1], 0xFFFF))
        used += PROGRESS.size
    if calls:
        U32.pack_into(shm, used, len(calls))
        shm[used + 4 : used + 4 + len(calls)] = calls
        used += 4 + len(calls)
    if cpu is not None:
        CPU_SECS.pack_into(shm, used, cpu)
        used += CPU_SECS.size
    return used


def put_injections(shm, used, injections):
    """A case's injection records (lenient mode), at most INJ_MAX bytes."""
    injections = injections[:32]
    U16.pack_into(shm, used, len(injections))
    used += 2
    for line, kind, name, cls in injections:
        U32.pack_into(shm, used, line if 0 <= line < 1 << 32 else 0)
        used += 4
        for s, m in ((kind, 12), (name, 100), (cls, 16)):
            b = s.encode("utf-8", "replace")[:m]
            shm[used] = len(b)
            shm[used + 1 : used + 1 + len(b)] = b
            used += 1 + len(b)
    return used
