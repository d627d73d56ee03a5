#!/usr/bin/env python3
"""Run the real-bug benchmark (bench/realbugs/bugs/*): reproduce every bug,
run `repair` on it like a user would, and judge the patch.

Standard library only, plus git and GNU patch. No upstream code is stored
beside this file: each bug's bug.json names the files to take from the
project's git history, and run.py materialises the bug into a temporary
directory from a local clone of the project (--mirrors, default
/work/.mirror, as the `fetch` tool leaves them: <owner>+<name>/repo).

    python3 bench/realbugs/run.py --reproduce-only
    python3 bench/realbugs/run.py --smoke --repair-bin /tmp/repair
    python3 bench/realbugs/run.py --repair-bin /tmp/repair --time-budget 60s --jobs 2 \
        --out /tmp/rb/results.jsonl --save /tmp/rb/save

See README.md beside this file.
"""

import argparse
import concurrent.futures
import datetime
import hashlib
import ast
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BUGS = os.path.join(HERE, 'bugs')

# --smoke: bugs recent builds repair within tens of evaluations (a few
# seconds each on a quiet machine; 9 and 31 s of wall time beside four
# busy loops), from two projects; .ci/run runs them under scripts/busy.
# (jmespath-1, once here, has only fixes that skip its type check: it is
# printed as a suspect fix, exit code 4.)
SMOKE = ['boltons-1', 'semver-1']
SMOKE_BUDGET = '60s'
# How far past --time-budget a run may end (the tool's promise).
BUDGET_SLACK = 10.0


def duration_seconds(d):
    """Seconds of a Go duration such as 60s, 2m, 1m30s, 500ms."""
    units = {'h': 3600.0, 'm': 60.0, 's': 1.0, 'ms': 1e-3, 'us': 1e-6, 'µs': 1e-6, 'ns': 1e-9}
    parts = re.findall(r'([0-9.]+)(h|ms|us|µs|ns|m|s)', d)
    if not parts or ''.join(a + b for a, b in parts) != d:
        raise ValueError('not a duration: %r' % d)
    return sum(float(a) * units[b] for a, b in parts)


def smoke_problems(results, budget):
    """What a smoke run found wrong: a bug not repaired plausibly, or a run
    that ended later than its time budget allows."""
    out = []
    limit = duration_seconds(budget) + BUDGET_SLACK
    for r in results:
        if not r.get('plausible'):
            out.append('%s: no plausible patch (exit %s) %s' % (
                r['bug'], r.get('exit_code'), (r.get('note') or r.get('error') or '')[:200]))
        w = r.get('wall_seconds')
        if w is not None and w > limit:
            out.append('%s: the run took %.1f s, more than --time-budget %s + %.0f s' % (r['bug'], w, budget, BUDGET_SLACK))
    return out

# A pytest plugin, loaded with -p rbplugin: it writes every test's outcome
# (RB_OUTCOMES) and, when RB_TRACE_TARGET names a file, the calls that enter
# that file from outside it, with what they returned or raised (RB_TRACE):
# the behaviour the developer's fix and a tool's patch are compared on.
# A test file that makes more than TRACE_LIMIT such calls (more-itertools:
# every step of a generator is one, millions in all) gets no trace (null):
# the hint is then "no trace", and the run does not spend minutes and
# gigabytes on it.
TRACE_LIMIT = 200000
PLUGIN = r'''
import json, os, re, sys, threading

_out = os.environ.get("RB_OUTCOMES")
_target = os.environ.get("RB_TRACE_TARGET")
_trace_path = os.environ.get("RB_TRACE")
_root = os.environ.get("RB_ROOT", "")
_outcomes = {}
_trace = []
_over = [False]
_node = [None]
_busy = [False]
_pending = {}
_HEX = re.compile(r"0x[0-9a-fA-F]+")


def _r(v):
    try:
        s = repr(v)
    except Exception as e:  # a repr that raises is a value too
        s = "<repr raised %s>" % type(e).__name__
    if _root:
        s = s.replace(_root, "<ROOT>")
    return _HEX.sub("0x?", s)[:300]


def _local(frame, event, arg):
    # the tracer of a call that entered the target from outside it
    if event == "exception":
        _pending[id(frame)] = arg[0].__name__
    elif event == "line":
        _pending.pop(id(frame), None)
    elif event == "return":
        exc = _pending.pop(id(frame), None)
        if _busy[0] or _over[0]:
            return _local
        if len(_trace) >= TRACE_LIMIT:
            _over[0] = True
            _trace.clear()
            return _local
        _busy[0] = True
        try:
            code = frame.f_code
            name = getattr(code, "co_qualname", code.co_name)
            res = ("raised " + exc) if (exc is not None and arg is None) else ("returned " + _r(arg))
            _trace.append([_node[0], name, res])
        finally:
            _busy[0] = False
    return _local


def _global(frame, event, arg):
    if event != "call" or _busy[0] or _over[0]:
        return None
    code = frame.f_code
    if code.co_filename != _target or code.co_name == "<module>":
        return None
    back = frame.f_back
    if back is not None and back.f_code.co_filename == _target:
        return None
    return _local


def pytest_configure(config):
    if _target and _trace_path:
        sys.settrace(_global)
        threading.settrace(_global)


def pytest_runtest_logstart(nodeid, location):
    _node[0] = nodeid


def pytest_runtest_logreport(report):
    prev = _outcomes.get(report.nodeid)
    if report.failed:
        st = "failed"
    elif report.skipped:
        st = "xfailed" if hasattr(report, "wasxfail") else "skipped"
    elif report.when == "call":
        st = "xpassed" if hasattr(report, "wasxfail") else "passed"
    else:
        st = prev or "passed"
    if prev in ("failed", "skipped", "xfailed") and st != "failed":
        st = prev
    _outcomes[report.nodeid] = st


def pytest_collectreport(report):
    if report.failed:
        _outcomes["<collection: %s>" % report.nodeid] = "failed"


def pytest_unconfigure(config):
    if _target and _trace_path:
        sys.settrace(None)
        threading.settrace(None)
        with open(_trace_path, "w") as f:
            json.dump(None if _over[0] else _trace, f)
    if _out:
        with open(_out, "w") as f:
            json.dump(_outcomes, f)
'''

_print_lock = threading.Lock()


def log(*a):
    with _print_lock:
        print(*a, file=sys.stderr, flush=True)


def load_bug(name, mirrors=None):
    d = os.path.join(BUGS, name)
    with open(os.path.join(d, 'bug.json')) as f:
        meta = json.load(f)
    meta['id'] = name
    meta['dir'] = d
    if mirrors is not None:
        meta['gitdir'] = find_gitdir(mirrors, meta['repo'])
    return meta


def test_files(meta):
    if meta.get('suite_files'):
        return list(meta['suite_files'])
    return [meta['tests']] + list(meta.get('extra_tests', []))


def traced_files(meta):
    """The files whose calls into the target are compared with the
    developer fix's (a hint for the reader): the bug's own, not a whole
    project's suite, whose traced runs would cost minutes a bug."""
    return [meta['tests']] + list(meta.get('extra_tests', []))


def is_test_file(path):
    """A test file pytest collects and the tool can take: repair imports a
    test file by its name, so semver's tests/test_max-min.py is left out."""
    b = os.path.basename(path)
    return b.endswith('.py') and (b.startswith('test_') or b.endswith('_test.py')) and b[:-3].isidentifier()


def project_paths(meta):
    """With --suite project: the files of the fix commit a test of the
    project's other files may need, as (path, is a test file): every file
    of the target's package and of the test file's directory (for a test
    file at the top, the top's test files and conftest.py)."""
    out = git(meta['gitdir'], 'ls-tree', '-r', meta['fix_commit']).decode(errors='replace')
    parts = meta['target'].split('/')
    pkg = '/'.join(parts[:2] if parts[0] == 'src' else parts[:1]) + '/' if len(parts) > 1 else None
    tdir = os.path.dirname(meta['tests'])
    paths = []
    for line in out.splitlines():
        info, _, path = line.partition('\t')
        mode, kind = info.split()[:2]
        if kind != 'blob':
            continue  # a submodule: not in the project's history
        if mode == '120000':
            # a symbolic link (semver's tests/coerce.py): the file it names
            link = git(meta['gitdir'], 'show', '%s:%s' % (meta['fix_commit'], path)).decode()
            path = (path, os.path.normpath(os.path.join(os.path.dirname(path), link)))
        name = path[0] if isinstance(path, tuple) else path
        if pkg and name.startswith(pkg):
            paths.append((path, False))
        elif tdir and name.startswith(tdir + '/'):
            paths.append((path, is_test_file(name)))
        elif not tdir and '/' not in name and (is_test_file(name) or name == 'conftest.py'):
            paths.append((path, is_test_file(name)))
    return paths


class MissingMirror(Exception):
    pass


def find_gitdir(mirrors, repo):
    """The git directory of repo ("owner/name") under mirrors, or None."""
    name = repo.replace('/', '+')
    for cand in (os.path.join(mirrors, name, 'repo', '.git'), os.path.join(mirrors, name, 'repo'),
                 os.path.join(mirrors, name, '.git'), os.path.join(mirrors, name),
                 os.path.join(mirrors, name + '.git')):
        if os.path.isfile(os.path.join(cand, 'HEAD')) and os.path.isdir(os.path.join(cand, 'objects')):
            return cand
    return None


def git(gitdir, *a):
    r = subprocess.run(['git', '--git-dir', gitdir] + list(a), capture_output=True)
    if r.returncode != 0:
        raise RuntimeError('git %s: %s (fetch the repository again if a commit is missing)'
                           % (' '.join(a), r.stderr.decode(errors='replace').strip()[:200]))
    return r.stdout


def write_file(root, rel, data):
    out = os.path.join(root, rel)
    if os.path.relpath(out, root).startswith('..'):
        raise ValueError('destination outside the bug dir: %s' % rel)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, 'wb') as f:
        f.write(data)


def materialise(meta, dst):
    """Writes the buggy tree of meta into dst: every entry of files from the
    project's history (path at commit, to dest) and every generated stub."""
    os.makedirs(dst, exist_ok=True)
    for e in meta['files']:
        write_file(dst, e.get('dest', e['path']), git(meta['gitdir'], 'show', '%s:%s' % (e['commit'], e['path'])))
    for e in meta.get('generated', []):
        write_file(dst, e['dest'], e['text'].encode())
    if meta.get('suite') == 'project':
        have = {e.get('dest', e['path']) for e in meta['files']} | {e['dest'] for e in meta.get('generated', [])}
        tests = []
        for path, is_test in project_paths(meta):
            path, src = path if isinstance(path, tuple) else (path, path)
            if is_test:
                tests.append(path)
            if path not in have:
                write_file(dst, path, git(meta['gitdir'], 'show', '%s:%s' % (meta['fix_commit'], src)))
        meta['project_tests'] = sorted(set(tests) | {meta['tests']})
    return dst


def developer_fix(meta):
    """The target at the fix commit, and the developer's change to it as a
    patch for patch -p1 (git's header lines dropped)."""
    fixed = git(meta['gitdir'], 'show', '%s:%s' % (meta['fix_commit'], meta['target']))
    diff = git(meta['gitdir'], 'diff', '--no-color', '--no-ext-diff', meta['buggy_commit'], meta['fix_commit'],
               '--', meta['target']).decode()
    diff = ''.join(l for l in diff.splitlines(True) if not l.startswith(('diff --git', 'index ')))
    return fixed, diff


def copy_bug(meta, parent, name):
    """A fresh copy of the bug's buggy tree (materialised once per run into
    meta['tree'])."""
    dst = os.path.join(parent, name)
    shutil.copytree(meta['tree'], dst, ignore=shutil.ignore_patterns('__pycache__', '*.pyc'))
    return dst


def apply_patch(d, patch_file):
    r = subprocess.run(['patch', '-p1', '--batch', '--forward', '-i', patch_file], cwd=d,
                       capture_output=True, text=True)
    return r.returncode == 0, (r.stdout + r.stderr).strip()


def run_pytest(args, meta, d, tests, plugin_dir, trace=False, timeout=300, extra=()):
    """Runs pytest on tests in d; returns ({nodeid: outcome}, trace or None, rc, output tail)."""
    env = dict(os.environ)
    paths = [plugin_dir] + [os.path.join(d, p) for p in meta.get('pythonpath', [])]
    if env.get('PYTHONPATH'):
        paths.append(env['PYTHONPATH'])
    env['PYTHONPATH'] = os.pathsep.join(paths)
    env['PYTHONHASHSEED'] = '0'
    env['PYTHONDONTWRITEBYTECODE'] = '1'
    fd, outcomes = tempfile.mkstemp(suffix='.json', dir=plugin_dir)
    os.close(fd)
    env['RB_OUTCOMES'] = outcomes
    env['RB_ROOT'] = d
    tr = None
    if trace:
        fd, tr = tempfile.mkstemp(suffix='.trace.json', dir=plugin_dir)
        os.close(fd)
        env['RB_TRACE_TARGET'] = os.path.realpath(os.path.join(d, meta['target']))
        env['RB_TRACE'] = tr
    cmd = [args.python, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-p', 'rbplugin'] + list(extra) + tests
    try:
        r = subprocess.run(cmd, cwd=d, env=env, capture_output=True, text=True, timeout=timeout)
        rc, tail = r.returncode, (r.stdout + r.stderr)[-2000:]
    except subprocess.TimeoutExpired:
        rc, tail = 'timeout', 'pytest timed out after %ss' % timeout
    res = {}
    try:
        with open(outcomes) as f:
            res = json.load(f)
    except (OSError, ValueError):
        pass
    trace_data = None
    if tr:
        try:
            with open(tr) as f:
                trace_data = json.load(f)
        except (OSError, ValueError):
            trace_data = None
    for p in (outcomes, tr):
        if p and os.path.exists(p):
            os.unlink(p)
    return res, trace_data, rc, tail


def not_ok(outcomes):
    return sorted(k for k, v in outcomes.items() if v in ('failed', 'xpassed'))


def normalized_ast(path):
    """The module's AST without docstrings, or None if it does not parse."""
    try:
        with open(path, encoding='utf-8') as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        body = getattr(node, 'body', None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree, annotate_fields=True, include_attributes=False)


def ast_sha(path):
    a = normalized_ast(path)
    return hashlib.sha256(a.encode()).hexdigest() if a is not None else None


def reproduce(args, meta, work, plugin_dir):
    """Checks the bug: failing tests fail on the buggy copy and pass with
    the developer's fix (the target at the fix commit); the test files pass
    whole after the fix. Returns a dict."""
    out = {'reproduces': False}
    if meta.get('project_tests'):
        # the project's other test files join the suite when they pass
        # whole with the developer's fix (a file that needs what the
        # benchmark does not install, or a submodule, is left out)
        fixed = copy_bug(meta, work, 'suite')
        write_file(fixed, meta['target'], developer_fix(meta)[0])
        # (a file that fails to collect, such as one importing what the
        # benchmark does not install, would stop the session: it is one
        # of those left out)
        rs, _, _, _ = run_pytest(args, meta, fixed, meta['project_tests'], plugin_dir,
                                 extra=['--continue-on-collection-errors'])
        bad = set()
        for k, v in rs.items():
            if v in ('failed', 'xpassed'):
                k = k[len('<collection: '):-1] if k.startswith('<collection: ') else k
                bad.add(k.split('::')[0])
        seen = {k.split('::')[0] for k in rs if not k.startswith('<')}
        if meta['tests'] in seen:
            meta['suite_files'] = [meta['tests']] + [f for f in meta['project_tests']
                                                     if f != meta['tests'] and f in seen and f not in bad]
            out['suite_files'] = meta['suite_files']
            out['suite_dropped'] = sorted(set(meta['project_tests']) - set(meta['suite_files']))
        else:
            # the project's conftest.py needs what the benchmark does not
            # write (semver's imports from docs/): the bug's test file alone
            out['suite_files'] = [meta['tests']]
            out['suite_dropped'] = ['all: the bug\'s test file does not run among the project\'s files']
            shutil.rmtree(meta['tree'])
            meta['suite'], meta['project_tests'] = 'file', None
            materialise(meta, meta['tree'])
    tests = test_files(meta)
    buggy = copy_bug(meta, work, 'buggy')
    rb, _, rcb, tailb = run_pytest(args, meta, buggy, tests, plugin_dir)
    fixed = copy_bug(meta, work, 'fixed')
    fixed_text, fix_diff = developer_fix(meta)
    write_file(fixed, meta['target'], fixed_text)
    with open(os.path.join(work, 'fix.patch'), 'w') as f:
        f.write(fix_diff)
    # outcomes come from untraced runs: a test that watches memory or
    # frames (more-itertools' test_memory_in_order) fails under the tracer
    rf, _, rcf, tailf = run_pytest(args, meta, fixed, tests, plugin_dir)
    traces = None
    if not args.reproduce_only:
        # a second traced run tells which calls give different results from
        # run to run (timestamps, random jitter): those are not compared
        _, trace, _, _ = run_pytest(args, meta, fixed, traced_files(meta), plugin_dir, trace=True)
        _, trace2, _, _ = run_pytest(args, meta, fixed, traced_files(meta), plugin_dir, trace=True)
        traces = (trace, trace2)
    problems = []
    if not rb:
        problems.append('buggy: pytest reported nothing (%s)' % tailb.strip().splitlines()[-1:] )
    for t in meta['failing_tests']:
        if rb.get(t) != 'failed':
            problems.append('%s: %s on the buggy code (want failed)' % (t, rb.get(t, 'not run')))
        if rf.get(t) != 'passed':
            problems.append('%s: %s after the fix (want passed)' % (t, rf.get(t, 'not run')))
    after = not_ok(rf)
    if after:
        problems.append('after the fix, not passing: ' + ', '.join(after[:5]))
    newly = sorted(k for k, v in rb.items() if v == 'passed' and rf.get(k) != 'passed')
    if newly:
        problems.append('the fix breaks: ' + ', '.join(newly[:5]))
    out['buggy_failing'] = not_ok(rb)
    out['tests_run'] = len(rf)
    out['reproduces'] = not problems
    if problems:
        out['problem'] = '; '.join(problems)
    return out, traces


def first_error_line(stderr, rc):
    lines = [l for l in stderr.splitlines() if l.strip()]
    if not lines:
        return ''
    if rc in (2, 3, 5, 6):
        # the tool's one-line error is its last line
        return lines[-1][:300]
    return lines[0][:300]


def run_tool(args, meta, work):
    d = copy_bug(meta, work, 'tool')
    report = os.path.join(work, 'report.json')
    cmd = [args.repair_bin, '--target', meta['target'], '--tests', ','.join(test_files(meta)) if meta.get('suite_files') else meta['tests'],
           '--time-budget', args.time_budget, '--report', report, '--seed', str(args.seed)]
    cmd += shlex.split(args.extra_args) if args.extra_args else []
    t0 = time.monotonic()
    try:
        r = subprocess.run(cmd, cwd=d, capture_output=True, text=True, timeout=args.tool_timeout)
        rc, stdout, stderr = r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired as e:
        rc = 'timeout'
        stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or '')
        stderr = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or '')
    except OSError as e:
        rc, stdout, stderr = 'error', '', str(e)
    wall = time.monotonic() - t0
    rep = None
    try:
        with open(report) as f:
            rep = json.load(f)
    except (OSError, ValueError):
        pass
    return {'cmd': ' '.join(cmd), 'rc': rc, 'patch': stdout, 'stderr': stderr, 'wall': wall, 'report': rep}


def judge_human(meta, sha):
    p = os.path.join(meta['dir'], 'judgement.json')
    if not os.path.exists(p) or sha is None:
        return None
    with open(p) as f:
        j = json.load(f)
    for e in j.get('patches', []):
        if e.get('ast_sha256') == sha:
            return e
    return None


def trace_difference(dev_traces, tool):
    """'' when the tool's calls into the target return what the developer
    fix's do (ignoring calls whose results differ between two runs of the
    developer fix), else the first difference; None when a trace is missing."""
    a, a2 = dev_traces if dev_traces else (None, None)
    if a is None or a2 is None or tool is None:
        return None
    if len(a) != len(a2):
        # the developer fix is not deterministic in its calls: exact match only
        return '' if tool in (a, a2) else 'the developer fix makes a varying number of calls'
    if len(a) != len(tool):
        return 'the developer fix makes %d calls into the target, the patched code %d' % (len(a), len(tool))
    for i, (x, x2, y) in enumerate(zip(a, a2, tool)):
        if x != x2:
            if x[:2] != y[:2]:
                return 'call %d: developer %s, tool %s' % (i, x, y)
            continue
        if x != y:
            return 'call %d: developer %s, tool %s' % (i, x, y)
    return ''


def judge(args, meta, work, plugin_dir, t, dev_traces, res):
    """Fills res from the tool's run t: plausible, correct, judged_by, note."""
    name = meta['id']
    res['exit_code'] = t['rc']
    res['wall_seconds'] = round(t['wall'], 2) if t['wall'] is not None else None
    res['command'] = t['cmd']
    r = t['report'] or {}
    for k, rk in (('evaluations', 'evaluations'), ('tool_seconds', 'seconds'), ('outcome', 'outcome'),
                  ('cases', 'cases'), ('failing_cases', 'failing')):
        res[k] = r.get(rk)
    res['patch'] = t['patch']
    if 'stderr' in t:
        res['stderr_line'] = first_error_line(t['stderr'], t['rc'])
        guard = [l for l in t['stderr'].splitlines() if 'guard:' in l]
        res['guard'] = guard[0].split('guard:', 1)[1].strip() if guard else ''
    else:
        res['stderr_line'] = t.get('stderr_line', '')
        res['guard'] = t.get('guard', '')
    if args.save and 'stderr' in t:
        sd = os.path.join(args.save, name)
        os.makedirs(sd, exist_ok=True)
        with open(os.path.join(sd, 'patch.diff'), 'w') as f:
            f.write(t['patch'])
        with open(os.path.join(sd, 'stderr.txt'), 'w') as f:
            f.write(t['stderr'])
        if t['report'] is not None:
            with open(os.path.join(sd, 'report.json'), 'w') as f:
                json.dump(t['report'], f, indent=1)
    res['plausible'] = False
    res['correct'] = '-'
    res['judged_by'] = ''
    if t['rc'] != 0 or not t['patch'].strip():
        res['note'] = res['stderr_line'] if t['rc'] != 1 else 'no patch within the budget'
        return res
    patched = copy_bug(meta, work, 'patched')
    pf = os.path.join(work, 'tool.patch')
    with open(pf, 'w') as f:
        f.write(t['patch'])
    ok, msg = apply_patch(patched, pf)
    if not ok:
        res['note'] = 'the printed patch does not apply: ' + msg[:200]
        return res
    tgt = os.path.join(patched, meta['target'])
    res['ast_sha256'] = ast_sha(tgt)
    # plausible: passes the suite the tool was given
    given, _, _, _ = run_pytest(args, meta, patched, test_files(meta) if meta.get('suite_files') else [meta['tests']],
                                plugin_dir)
    if not given or not_ok(given):
        res['note'] = 'patched copy fails under plain pytest: ' + ', '.join(not_ok(given)[:3])
        return res
    res['plausible'] = True
    whole, _, _, _ = run_pytest(args, meta, patched, test_files(meta), plugin_dir)
    _, tool_trace, _, _ = run_pytest(args, meta, patched, traced_files(meta), plugin_dir, trace=True)
    fixed_target = os.path.join(work, 'fixed', meta['target'])
    diff = trace_difference(dev_traces, tool_trace)
    if not_ok(whole):
        res['correct'], res['judged_by'] = 'no', 'auto: fails the bug\'s test files'
        res['note'] = 'fails ' + ', '.join(not_ok(whole)[:3])
    elif res['ast_sha256'] is not None and res['ast_sha256'] == ast_sha(fixed_target):
        res['correct'], res['judged_by'] = 'yes', 'auto: same AST as the fix'
    elif diff == '':
        # The test files seldom call the code where an overfitting patch
        # differs: a hint for the reader, not a verdict.
        res['correct'], res['judged_by'] = '?', 'to read (same results as the fix on the test files)'
    else:
        res['correct'], res['judged_by'] = '?', 'needs review'
        res['note'] = 'differs from the developer fix: ' + (diff or 'no trace')[:300]
    human = judge_human(meta, res['ast_sha256'])
    if human:
        res['auto_correct'] = res['correct']
        res['correct'] = 'yes' if human['verdict'] == 'correct' else 'no'
        res['judged_by'] = 'human'
        res['note'] = human.get('reason', '')
    return res


def run_bug(args, name, previous=None):
    """Reproduces bug name, runs the tool (or takes its earlier run from
    previous, a record of --out) and judges the patch."""
    meta = load_bug(name, args.mirrors)
    meta['suite'] = args.suite
    work = tempfile.mkdtemp(prefix='realbugs-%s-' % name)
    plugin_dir = os.path.join(work, 'plugin')
    os.makedirs(plugin_dir)
    with open(os.path.join(plugin_dir, 'rbplugin.py'), 'w') as f:
        f.write('TRACE_LIMIT = %d\n' % TRACE_LIMIT + PLUGIN)
    res = {'bug': name, 'project': meta['project'], 'shape': meta.get('shape', '')}
    try:
        meta['tree'] = materialise(meta, os.path.join(work, 'tree'))
        rep, dev_traces = reproduce(args, meta, work, plugin_dir)
        res.update(rep)
        if args.reproduce_only:
            return res
        if not rep['reproduces']:
            res.update(plausible=False, correct='-', judged_by='', exit_code='', note='does not reproduce')
            return res
        if previous is not None:
            t = {'cmd': previous.get('command', ''), 'rc': previous.get('exit_code'),
                 'patch': previous.get('patch') or '', 'wall': previous.get('wall_seconds'),
                 'report': {'evaluations': previous.get('evaluations'), 'seconds': previous.get('tool_seconds'),
                            'outcome': previous.get('outcome'), 'cases': previous.get('cases'),
                            'failing': previous.get('failing_cases')},
                 'stderr_line': previous.get('stderr_line', ''), 'guard': previous.get('guard', '')}
        else:
            t = run_tool(args, meta, work)
        return judge(args, meta, work, plugin_dir, t, dev_traces, res)
    except Exception as e:  # a broken bug must not stop the benchmark
        res['error'] = '%s: %s' % (type(e).__name__, e)
        res.setdefault('plausible', False)
        res.setdefault('correct', '-')
        return res
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            res['workdir'] = work


def pick_python(explicit):
    if explicit:
        return explicit
    for cand in ('python3', '/usr/bin/python3'):
        try:
            r = subprocess.run([cand, '-m', 'pytest', '--version'], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if r.returncode == 0:
            return cand
    sys.exit('no python3 with pytest found (apt-get install python3-pytest), or pass --python')


def fmt(v):
    if v is True:
        return 'yes'
    if v is False:
        return 'no'
    if v is None:
        return ''
    return str(v)


def table(results, reproduce_only):
    if reproduce_only:
        lines = ['| bug | reproduces | failing tests | tests | problem |', '|---|---|---|---|---|']
        for r in results:
            lines.append('| %s | %s | %d | %s | %s |' % (r['bug'], fmt(r['reproduces']), len(r.get('buggy_failing', [])),
                                                     fmt(r.get('tests_run')), r.get('problem', '') or r.get('error', '')))
        n = sum(1 for r in results if r['reproduces'])
        lines.append('')
        lines.append('reproduce %d/%d' % (n, len(results)))
        return '\n'.join(lines)
    lines = ['| bug | shape | plausible | correct | judged by | time to patch (s) | evaluations | exit code | note |',
             '|---|---|---|---|---|---|---|---|---|']
    for r in results:
        note = (r.get('note') or r.get('error') or '').replace('|', '\\|').replace('\n', ' ')
        tp = r.get('wall_seconds') if r.get('plausible') else None
        lines.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
            r['bug'], r.get('shape', ''), fmt(r.get('plausible')), fmt(r.get('correct')), r.get('judged_by', ''),
            fmt(tp), fmt(r.get('evaluations')), fmt(r.get('exit_code')), note[:160]))
    n = len(results)
    pl = [r for r in results if r.get('plausible')]
    co = [r for r in results if r.get('correct') == 'yes']
    unsure = [r for r in results if r.get('correct') == '?']
    times = [r['wall_seconds'] for r in pl]
    alltimes = [r['wall_seconds'] for r in results if r.get('wall_seconds') is not None]
    lines.append('')
    lines.append('plausible %d/%d, correct %d/%d%s, median time to patch %s s, median wall time %s s' % (
        len(pl), n, len(co), n, (' (%d to review)' % len(unsure)) if unsure else '',
        round(statistics.median(times), 2) if times else '-',
        round(statistics.median(alltimes), 2) if alltimes else '-'))
    return '\n'.join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('bugs', nargs='*', help='bug ids (directories under bugs/); default all')
    ap.add_argument('--reproduce-only', action='store_true', help='only check that every bug reproduces')
    ap.add_argument('--smoke', action='store_true',
                    help='the smoke subset (%s unless bugs are named; --time-budget %s unless given): exit 1 '
                         'unless every bug gets a plausible patch and every run ends within its time budget '
                         '+ %.0f s; without the projects\' clones it says so and exits 0'
                         % (' '.join(SMOKE), SMOKE_BUDGET, BUDGET_SLACK))
    ap.add_argument('--suite', choices=('file', 'project'), default='file',
                    help='the tests the tool gets: the bug\'s test file (default), or the project\'s: every '
                         'test file of its directory that passes with the developer\'s fix (the files of the '
                         'target\'s package and the tests\' directory come from the fix commit)')
    ap.add_argument('--repair-bin', default='repair', help='the repair binary (default: repair on PATH)')
    ap.add_argument('--time-budget', default='', help='passed to repair --time-budget (default 120s; %s with --smoke)' % SMOKE_BUDGET)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--extra-args', default='', help='more arguments for repair, e.g. "--workers 1"')
    ap.add_argument('--jobs', type=int, default=1, help='bugs at once (default 1)')
    ap.add_argument('--python', default='', help='interpreter with pytest for reproducing and judging '
                                               '(default: python3 if it has pytest, else /usr/bin/python3)')
    ap.add_argument('--mirrors', default='/work/.mirror',
                    help='directory holding the projects\' git clones as <owner>+<name>/repo '
                         '(what `fetch github:<owner>/<name>` leaves; default /work/.mirror)')
    ap.add_argument('--materialise', metavar='DIR',
                    help='only write each bug\'s buggy tree, with the developer\'s change as fix.patch, '
                         'to DIR/<bug>/ (for reading or debugging; keep DIR out of the repository)')
    ap.add_argument('--out', help='write one JSON line per bug here (default for a repair run: '
                                  'results.jsonl in a new directory under /tmp)')
    ap.add_argument('--save', help='directory for each bug\'s patch, stderr and report (default for a '
                                   'repair run: the --out file\'s directory when --out is not given)')
    ap.add_argument('--tool-timeout', type=float, default=0,
                    help='kill repair after this many seconds (default: 3 x budget + 120)')
    ap.add_argument('--keep', action='store_true', help='keep the temporary copies')
    ap.add_argument('--rejudge', metavar='RESULTS.jsonl',
                    help='do not run repair: judge again the patches recorded in a file of --out '
                         '(after judgement.json files were written, or run.py changed)')
    args = ap.parse_args()
    if not args.time_budget:
        args.time_budget = SMOKE_BUDGET if args.smoke else '120s'
    if args.smoke and (args.reproduce_only or args.rejudge or args.materialise):
        sys.exit('--smoke runs repair: not with --reproduce-only, --rejudge or --materialise')
    if args.smoke and not args.bugs:
        args.bugs = list(SMOKE)
    if not args.materialise:
        args.python = pick_python(args.python)
    if not args.tool_timeout:
        m = re.fullmatch(r'(\d+(?:\.\d+)?)(ms|s|m|h)?', args.time_budget)
        secs = float(m.group(1)) * {'ms': 0.001, 's': 1, 'm': 60, 'h': 3600, None: 1}[m.group(2)] if m else 120
        args.tool_timeout = 3 * secs + 120
    previous = {}
    if args.rejudge:
        with open(args.rejudge) as f:
            for line in f:
                if line.strip():
                    rec = json.loads(line)
                    previous[rec['bug']] = rec
    args.mirrors = os.path.abspath(args.mirrors)
    if not args.reproduce_only and not args.rejudge and not args.materialise:
        rb = shutil.which(args.repair_bin) or (args.repair_bin if os.path.exists(args.repair_bin) else None)
        if not rb:
            sys.exit('repair binary not found: %s (use --repair-bin)' % args.repair_bin)
        args.repair_bin = os.path.abspath(rb)
    names = args.bugs or sorted(n for n in os.listdir(BUGS) if os.path.exists(os.path.join(BUGS, n, 'bug.json')))
    if args.rejudge:
        names = [n for n in names if n in previous]
    for n in names:
        if not os.path.exists(os.path.join(BUGS, n, 'bug.json')):
            sys.exit('no such bug: %s' % n)
    skipped, missing = [], set()
    for n in names:
        meta = load_bug(n, args.mirrors)
        if meta['gitdir'] is None:
            skipped.append(n)
            if meta['repo'] not in missing:
                missing.add(meta['repo'])
                log('realbugs: no clone of %s under %s: fetch github:%s (skipping its bugs)'
                    % (meta['repo'], args.mirrors, meta['repo']))
    names = [n for n in names if n not in skipped]
    if args.materialise:
        for n in names:
            meta = load_bug(n, args.mirrors)
            meta['suite'] = args.suite
            d = os.path.join(os.path.abspath(args.materialise), n)
            if os.path.exists(d):
                shutil.rmtree(d)
            materialise(meta, d)
            with open(os.path.join(d, 'fix.patch'), 'w') as f:
                f.write(developer_fix(meta)[1])
        log('realbugs: %d bugs written to %s%s' % (len(names), args.materialise,
                                                    ', %d skipped' % len(skipped) if skipped else ''))
        return 1 if skipped else 0
    if not args.reproduce_only and not args.out and not args.save:
        d = tempfile.mkdtemp(prefix='realbugs-results-%s-' % datetime.date.today().isoformat())
        args.out, args.save = os.path.join(d, 'results.jsonl'), d
        log('realbugs: results go to %s' % d)
    if args.save:
        args.save = os.path.abspath(args.save)
    log('realbugs: %d bugs, python %s%s' % (len(names), args.python, '' if args.reproduce_only else
                                          ', %s --time-budget %s --seed %d %s, %d jobs' % (
                                              args.repair_bin, args.time_budget, args.seed, args.extra_args, args.jobs)))
    results = {}
    if args.out:
        # each record as its bug ends (a run stopped halfway keeps them;
        # --rejudge takes such a file); rewritten in bug order at the end
        open(args.out, 'w').close()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {ex.submit(run_bug, args, n, previous.get(n) if args.rejudge else None): n for n in names}
        for fu in concurrent.futures.as_completed(futs):
            r = fu.result()
            results[r['bug']] = r
            if args.out and not args.reproduce_only:
                with open(args.out, 'a') as f:
                    f.write(json.dumps(dict(r, date=previous.get(r['bug'], {}).get('date')
                                            or datetime.date.today().isoformat())) + '\n')
            if args.reproduce_only:
                log('  %-14s reproduces=%s %s' % (r['bug'], fmt(r['reproduces']), r.get('problem', '') or r.get('error', '')))
            else:
                log('  %-14s plausible=%s correct=%s exit=%s %.1fs %s' % (
                    r['bug'], fmt(r.get('plausible')), r.get('correct'), r.get('exit_code'),
                    r.get('wall_seconds') or 0, (r.get('note') or r.get('error') or '')[:100]))
    ordered = [results[n] for n in names]
    if args.out:
        with open(args.out, 'w') as f:
            for r in ordered:
                r = dict(r)
                r.setdefault('date', previous.get(r['bug'], {}).get('date') or datetime.date.today().isoformat())
                f.write(json.dumps(r) + '\n')
    print(table(ordered, args.reproduce_only))
    if skipped:
        print('\nskipped (no clone under %s): %s' % (args.mirrors, ', '.join(skipped)))
    if args.smoke:
        problems = smoke_problems(ordered, args.time_budget)
        for p in problems:
            log('realbugs: smoke: ' + p)
        if not ordered:
            log('realbugs: smoke: skipped, no clone of the projects under %s' % args.mirrors)
        return 1 if problems else 0
    if args.reproduce_only:
        return 0 if all(r['reproduces'] for r in ordered) and not skipped else 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
