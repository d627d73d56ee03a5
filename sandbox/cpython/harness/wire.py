"""The wire format's code, in the constants protocol.py spells.

Owns the framing of the messages between Go and the manager (read_msg,
send, the lock that keeps a heartbeat's ping out of a message) and the
writing of a record into the shared memory (put_record, the encoding of
a case's lines).
"""
import array
import os
from _thread import allocate_lock
from itertools import compress

from .protocol import (
    CPU_SECS,
    DETAIL_MAX,
    IN_FD,
    OUT_FD,
    PROGRESS,
    REC,
    REC_CALLS,
    REC_CPU,
    REC_DETAIL,
    REC_INJECTIONS,
    REC_LINES,
    REC_LINES_REF,
    REC_PROGRESS,
    REC_SAME_LINES,
    U16,
    U32,
)


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
