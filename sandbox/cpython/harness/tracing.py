"""Coverage: the tracers (sys.settrace) that mark in a byte a line the
lines of the candidate a case runs. Owns no state; each tracer owns what
it keeps of the running case (make_plain_tracer: the functions not fully
covered yet)."""
from . import candidate


def make_tracer(covmv, L, offsets=None, touched=None):
    """A tracer that marks in covmv (a byte a line) the lines of the
    candidate that run; with touched, a list, it appends each line it
    marks that was not marked yet."""
    if offsets is not None:
        return make_multi_tracer(covmv, L, offsets, touched)
    cand = candidate.CAND_FILE
    if touched is None:
        return make_plain_tracer(covmv, L, cand)
    add = touched.append

    def local(frame, event, arg):
        if event == "line":
            ln = frame.f_lineno
            if 0 < ln < L and not covmv[ln]:
                covmv[ln] = 1
                add(ln)
        return local

    def glob(frame, event, arg):
        if frame.f_code.co_filename == cand:
            return local
        return None

    return glob


def make_plain_tracer(covmv, L, cand):
    """make_tracer's tracer of one target, without touched. A function
    whose every line this case's coverage holds is not traced further
    (its frames get no local tracer), until reset (a tracer's attribute,
    called where the coverage is cleared): a test that calls one function
    of the target millions of times ran six to eight times slower under
    coverage than under plain pytest, nearly all of it in the tracer."""
    todo = {}  # code -> its lines the coverage does not hold yet (this case)
    get = todo.get

    def local(frame, event, arg):
        if event == "line":
            ln = frame.f_lineno
            if 0 < ln < L and not covmv[ln]:
                covmv[ln] = 1
                rest = get(frame.f_code)
                if rest is not None:
                    rest.discard(ln)
                    if not rest:
                        return None  # the frame's function is covered
        return local

    def glob(frame, event, arg):
        code = frame.f_code
        if code.co_filename != cand:
            return None
        rest = get(code)
        if rest is None:
            rest = todo[code] = {ln for _, _, ln in code.co_lines() if ln is not None and 0 < ln < L and not covmv[ln]}
        return local if rest else None

    glob.reset = todo.clear
    return glob


def make_multi_tracer(covmv, L, offsets, touched=None):
    """make_tracer for several targets: a line of target k counts at its
    line of the joined program, after offsets[k] lines."""
    by_file = {f: off for (_, f), off in zip(candidate.MULTI, offsets)}

    def tracer_for(off):
        if touched is not None:
            add = touched.append

            def local(frame, event, arg):
                if event == "line":
                    ln = frame.f_lineno + off
                    if 0 < ln < L and not covmv[ln]:
                        covmv[ln] = 1
                        add(ln)
                return local

            return local

        def local(frame, event, arg):
            if event == "line":
                ln = frame.f_lineno + off
                if 0 < ln < L:
                    covmv[ln] = 1
            return local

        return local

    locals_ = {f: tracer_for(off) for f, off in by_file.items()}

    def glob(frame, event, arg):
        return locals_.get(frame.f_code.co_filename)

    return glob
