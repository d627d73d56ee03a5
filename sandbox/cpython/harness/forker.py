"""The forker: the process the shim executed (PID 1 of the sandbox's PID
namespace). It forks a child when the manager asks, reaps it, kills and
reaps whatever it left behind, and reports its exit status; before the
first child of a candidate it empties the working directory, making its
WORK_DIRS (HOME, TMPDIR) afresh (and, without namespaces, puts lib/ back
as it was). Its loop touches few pages, so
forking it costs few copy-on-write faults.

Owns PIDNS and CHILDREN_PATH (identify), WORK_DIRS, LISTING and
WORK_STATE (configure, make_work_dirs) and the record of lib/ as the shim made it: LIB_FILES,
LIB_DIRS, LIB_STATE (snapshot_lib).
"""
import os
import _signal as signal  # signal's C half: the module itself imports enum, a tenth of a server's start
from stat import S_ISDIR as stat_isdir

from .protocol import FORK_SPARE, FORK_WIPE, FORKED, MSG, REAPED

PIDNS = False  # the forker is PID 1 of a PID namespace
CHILDREN_PATH = ""  # /proc's list of the forker's children
LIB_FILES = ()  # (path, content) of every file of lib/
LIB_DIRS = ()  # lib/'s directories, parents first
LIB_STATE = None  # what lib/ holds (lib_state)
WORK_DIRS = ()  # directories every candidate finds empty (HOME, TMPDIR), beside lib/
LISTING = ["lib"]  # what the working directory holds between candidates, sorted
WORK_STATE = []  # WORK_DIRS as made (work_state), updated in place: the guard's copy of the globals stays equal


def identify():
    """Sets PIDNS and CHILDREN_PATH: call it in the forker, first."""
    global PIDNS, CHILDREN_PATH
    PIDNS = os.getpid() == 1
    CHILDREN_PATH = "/proc/self/task/%d/children" % os.getpid()


def configure(work_dirs):
    """Sets WORK_DIRS (the suite's "work_dirs") and makes them."""
    global WORK_DIRS, LISTING
    WORK_DIRS = tuple(work_dirs)
    LISTING = sorted(("lib",) + WORK_DIRS)
    make_work_dirs()


def make_work_dirs():
    """Makes WORK_DIRS, empty, and records them (WORK_STATE)."""
    for d in WORK_DIRS:
        try:
            os.mkdir(d, 0o755)
        except OSError:
            pass
    WORK_STATE[:] = work_state()


def work_state(base=""):
    """What WORK_DIRS (in base: the working directory by default) are:
    inode, mode, links and change time. A directory
    whose entries change, whose mode or times are set, gets a new change
    time (which nothing in the sandbox can set back: no clock calls), so
    an unchanged state is an unchanged, empty directory: one lstat each."""
    out = []
    for d in WORK_DIRS:
        try:
            st = os.lstat(os.path.join(base, d))
            out.append((st.st_ino, st.st_mode, st.st_nlink, st.st_ctime_ns))
        except OSError:
            out.append(None)
    return out


def clean_work_dirs(base=""):
    """Whether every directory of WORK_DIRS (in base: the working
    directory by default) is as make_work_dirs left it."""
    return not WORK_DIRS or work_state(base) == WORK_STATE


def snapshot_lib():
    """Records lib/ as the shim made it, to put it back (restore_lib)."""
    global LIB_FILES, LIB_DIRS, LIB_STATE
    files, dirs = [], []
    try:
        dirs, names = lib_walk()
        for p in names:
            with open(p, "rb") as f:
                files.append((p, f.read()))
    except OSError:
        pass
    LIB_FILES, LIB_DIRS = tuple(files), tuple(dirs)
    LIB_STATE = lib_state()


def forker(rfd, wfd, manager, start_child):
    """The loop of PID 1: one fork per request of the manager (pid
    manager), whose child calls start_child(spare: it waits for the
    manager's first CHILD_GO). Kept small: every page it
    writes is copied once more after each fork."""
    read, write, fork, waitpid, pack = os.read, os.write, os.fork, os.waitpid, MSG.pack
    while True:
        try:
            req = read(rfd, 1)
            if not req:
                os._exit(0)  # the manager is gone
            if req == FORK_WIPE or req == FORK_SPARE:
                wipe_workdir()
            pid = fork()
            if pid == 0:
                start_child(req == FORK_SPARE)
            write(wfd, pack(FORKED, pid))
            status = wait_child(pid, manager)
            reap_leftovers(manager)
            write(wfd, pack(REAPED, status))
        except BaseException:
            os._exit(3)


def wait_child(pid, manager):
    """Waits until child pid ends and returns its wait status (-1: lost).
    Meanwhile it watches the manager, its other child: a candidate that
    stops it (SIGSTOP, SIGTSTP: the manager is not PID 1 and cannot ignore
    them) would silence the server and cost the records of the cases it
    finished. The forker, which candidates cannot signal, lets the manager
    go on and kills the child (the running case is its last: it attacked
    the sandbox); the manager then sends what the finished cases wrote."""
    waitpid, kill = os.waitpid, os.kill
    while True:
        try:
            wpid, status = waitpid(-1, os.WUNTRACED)
        except InterruptedError:
            continue
        except ChildProcessError:
            return -1
        if wpid == pid and not os.WIFSTOPPED(status):
            # A stop of the manager may be reported after the child's end
            # (the child stopped it and finished): take that report, and
            # let the manager go on.
            try:
                while waitpid(manager, os.WNOHANG | os.WUNTRACED)[0] == manager:
                    pass
            except OSError:
                pass
            try:
                kill(manager, signal.SIGCONT)
            except OSError:
                pass
            return status
        if wpid == manager and os.WIFSTOPPED(status):
            for f, sig in ((os.killpg, signal.SIGKILL), (kill, signal.SIGKILL), (kill, signal.SIGCONT)):
                try:
                    f(pid if sig == signal.SIGKILL else manager, sig)
                except OSError:
                    pass
        # Else an orphan the candidate left, reaped here (reap_leftovers
        # kills the living ones), or the child stopped: its deadline ends it.


def wipe_workdir():
    """Empties the working directory (the private tmpfs) but for lib/
    before the first child of a candidate (everything the previous one
    started is gone by then): every candidate starts from the same empty
    directory (a file left by one candidate must not make another pass, a
    full tmpfs must not make it fail). Without namespaces lib/ is writable
    by its owner: it is put back as it was too."""
    try:
        if sorted(os.listdir(".")) == LISTING and os.stat(".").st_mode & 0o7777 == 0o755 and clean_work_dirs():
            if PIDNS or lib_state() == LIB_STATE:
                return
    except OSError:
        pass
    try:
        os.chmod(".", 0o755)
        names = os.listdir(".")
    except OSError:
        return
    for name in names:
        if name != "lib":
            remove_tree(name)
    make_work_dirs()
    if not PIDNS and lib_state() != LIB_STATE:
        restore_lib()


def remove_tree(path):
    """Removes path, without following symbolic links, whatever the modes
    of its directories."""
    try:
        st = os.lstat(path)
    except OSError:
        return
    if stat_isdir(st.st_mode):
        try:
            os.chmod(path, 0o700)
            names = os.listdir(path)
        except OSError:
            names = []
        for name in names:
            remove_tree(os.path.join(path, name))
        try:
            os.rmdir(path)
        except OSError:
            pass
    else:
        try:
            os.unlink(path)
        except OSError:
            pass


def lib_walk():
    """lib/'s directories and files (paths relative to the working
    directory), parents first."""
    dirs, files = [], []
    stack = ["lib"]
    while stack:
        d = stack.pop()
        dirs.append(d)
        for name in sorted(os.listdir(d), reverse=True):
            p = os.path.join(d, name)
            if os.path.isdir(p) and not os.path.islink(p):
                stack.append(p)
            else:
                files.append(p)
    return dirs, files


def lib_state():
    """What lib/ holds: names, sizes, modification times and modes."""
    out = []
    try:
        dirs, files = lib_walk()
        for p in dirs + files:
            st = os.lstat(p)
            out.append((p, st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino))
    except OSError:
        return None
    return out


def restore_lib():
    """Puts lib/ back as the shim made it (without namespaces only)."""
    global LIB_STATE
    try:
        os.chmod("lib", 0o755)
    except OSError:
        pass
    remove_tree("lib")
    try:
        for d in LIB_DIRS:
            os.mkdir(d, 0o755)
        for p, data in LIB_FILES:
            fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
            try:
                os.write(fd, data)
            finally:
                os.close(fd)
        for d in reversed(LIB_DIRS):
            os.chmod(d, 0o555)
    except OSError:
        pass
    LIB_STATE = lib_state()


def reap_leftovers(manager):
    """Kills and reaps every child of the forker but the manager: whatever
    the candidate left running or exited ends up here, orphans being
    adopted by PID 1 (or by the forker as a child subreaper)."""
    for _ in range(10000):
        kids = children()
        if kids is None:
            return
        others = [k for k in kids if k != manager]
        if not others:
            return
        for k in others:
            try:
                os.kill(k, signal.SIGKILL)
            except OSError:
                pass
        for k in others:
            try:
                os.waitpid(k, 0)
            except OSError:
                pass


def children():
    """The forker's children, from /proc (CONFIG_PROC_CHILDREN), else from
    a scan of /proc/*/stat; None if /proc is unusable."""
    try:
        fd = os.open(CHILDREN_PATH, os.O_RDONLY)
        try:
            return [int(x) for x in os.read(fd, 1 << 16).split()]
        finally:
            os.close(fd)
    except OSError:
        pass
    me = os.getpid()
    kids = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name, "rb") as f:
                data = f.read()
            if int(data[data.rindex(b")") + 2 :].split()[1]) == me:
                kids.append(int(name))
        except (OSError, ValueError):
            pass
    return kids
