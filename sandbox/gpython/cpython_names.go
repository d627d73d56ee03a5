// Code generated from CPython 3.11 (dir() of builtins, of the built-in
// types and of math, os, sys, time and string, and sys.stdlib_module_names)
// by the script in testdata/cpython_names.py. DO NOT EDIT.

package gpython

// Names CPython has, for telling a gpython limitation (a method, built-in
// or module CPython has) from a mistake of the program (one it has not).
var (
	cpythonBuiltins = words(`ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError
BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError
ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError Ellipsis EncodingWarning
EnvironmentError Exception ExceptionGroup False FileExistsError FileNotFoundError FloatingPointError
FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError IndexError
InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError
ModuleNotFoundError NameError None NotADirectoryError NotImplemented NotImplementedError OSError
OverflowError PendingDeprecationWarning PermissionError ProcessLookupError RecursionError
ReferenceError ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration StopIteration
SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError True TypeError
UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError
UnicodeWarning UserWarning ValueError Warning ZeroDivisionError abs aiter all anext any ascii bin
bool breakpoint bytearray bytes callable chr classmethod compile complex copyright credits delattr
dict dir divmod enumerate eval exec exit filter float format frozenset getattr globals hasattr hash
help hex id input int isinstance issubclass iter len license list locals map max memoryview min next
object oct open ord pow print property quit range repr reversed round set setattr slice sorted
staticmethod str sum super tuple type vars zip`)
	cpythonStdlib = words(`abc aifc antigravity argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb binascii
bisect builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop collections
colorsys compileall concurrent configparser contextlib contextvars copy copyreg crypt csv ctypes
curses dataclasses datetime dbm decimal difflib dis distutils doctest email encodings ensurepip enum
errno faulthandler fcntl filecmp fileinput fnmatch fractions ftplib functools gc genericpath getopt
getpass gettext glob graphlib grp gzip hashlib heapq hmac html http idlelib imaplib imghdr imp
importlib inspect io ipaddress itertools json keyword lib2to3 linecache locale logging lzma mailbox
mailcap marshal math mimetypes mmap modulefinder msilib msvcrt multiprocessing netrc nis nntplib nt
ntpath nturl2path numbers opcode operator optparse os ossaudiodev pathlib pdb pickle pickletools
pipes pkgutil platform plistlib poplib posix posixpath pprint profile pstats pty pwd py_compile
pyclbr pydoc pydoc_data pyexpat queue quopri random re readline reprlib resource rlcompleter runpy
sched secrets select selectors shelve shlex shutil signal site smtpd smtplib sndhdr socket
socketserver spwd sqlite3 sre_compile sre_constants sre_parse ssl stat statistics string stringprep
struct subprocess sunau symtable sys sysconfig syslog tabnanny tarfile telnetlib tempfile termios
textwrap this threading time timeit tkinter token tokenize tomllib trace traceback tracemalloc tty
turtle turtledemo types typing unicodedata unittest urllib uu uuid venv warnings wave weakref
webbrowser winreg winsound wsgiref xdrlib xml xmlrpc zipapp zipfile zipimport zlib zoneinfo`)
	// cpythonTypeAttrs are the attributes of the built-in types, by name.
	cpythonTypeAttrs = map[string]*wordSet{
		"str": words(`__add__ __class__ __contains__ __delattr__ __dir__ __doc__ __eq__ __format__ __ge__ __getattribute__
__getitem__ __getnewargs__ __getstate__ __gt__ __hash__ __init__ __init_subclass__ __iter__ __le__
__len__ __lt__ __mod__ __mul__ __ne__ __new__ __reduce__ __reduce_ex__ __repr__ __rmod__ __rmul__
__setattr__ __sizeof__ __str__ __subclasshook__ capitalize casefold center count encode endswith
expandtabs find format format_map index isalnum isalpha isascii isdecimal isdigit isidentifier
islower isnumeric isprintable isspace istitle isupper join ljust lower lstrip maketrans partition
removeprefix removesuffix replace rfind rindex rjust rpartition rsplit rstrip split splitlines
startswith strip swapcase title translate upper zfill`),
		"list": words(`__add__ __class__ __class_getitem__ __contains__ __delattr__ __delitem__ __dir__ __doc__ __eq__
__format__ __ge__ __getattribute__ __getitem__ __getstate__ __gt__ __hash__ __iadd__ __imul__
__init__ __init_subclass__ __iter__ __le__ __len__ __lt__ __mul__ __ne__ __new__ __reduce__
__reduce_ex__ __repr__ __reversed__ __rmul__ __setattr__ __setitem__ __sizeof__ __str__
__subclasshook__ append clear copy count extend index insert pop remove reverse sort`),
		"dict": words(`__class__ __class_getitem__ __contains__ __delattr__ __delitem__ __dir__ __doc__ __eq__ __format__
__ge__ __getattribute__ __getitem__ __getstate__ __gt__ __hash__ __init__ __init_subclass__ __ior__
__iter__ __le__ __len__ __lt__ __ne__ __new__ __or__ __reduce__ __reduce_ex__ __repr__ __reversed__
__ror__ __setattr__ __setitem__ __sizeof__ __str__ __subclasshook__ clear copy fromkeys get items
keys pop popitem setdefault update values`),
		"int": words(`__abs__ __add__ __and__ __bool__ __ceil__ __class__ __delattr__ __dir__ __divmod__ __doc__ __eq__
__float__ __floor__ __floordiv__ __format__ __ge__ __getattribute__ __getnewargs__ __getstate__
__gt__ __hash__ __index__ __init__ __init_subclass__ __int__ __invert__ __le__ __lshift__ __lt__
__mod__ __mul__ __ne__ __neg__ __new__ __or__ __pos__ __pow__ __radd__ __rand__ __rdivmod__
__reduce__ __reduce_ex__ __repr__ __rfloordiv__ __rlshift__ __rmod__ __rmul__ __ror__ __round__
__rpow__ __rrshift__ __rshift__ __rsub__ __rtruediv__ __rxor__ __setattr__ __sizeof__ __str__
__sub__ __subclasshook__ __truediv__ __trunc__ __xor__ as_integer_ratio bit_count bit_length
conjugate denominator from_bytes imag numerator real to_bytes`),
		"float": words(`__abs__ __add__ __bool__ __ceil__ __class__ __delattr__ __dir__ __divmod__ __doc__ __eq__ __float__
__floor__ __floordiv__ __format__ __ge__ __getattribute__ __getformat__ __getnewargs__ __getstate__
__gt__ __hash__ __init__ __init_subclass__ __int__ __le__ __lt__ __mod__ __mul__ __ne__ __neg__
__new__ __pos__ __pow__ __radd__ __rdivmod__ __reduce__ __reduce_ex__ __repr__ __rfloordiv__
__rmod__ __rmul__ __round__ __rpow__ __rsub__ __rtruediv__ __setattr__ __sizeof__ __str__ __sub__
__subclasshook__ __truediv__ __trunc__ as_integer_ratio conjugate fromhex hex imag is_integer real`),
		"tuple": words(`__add__ __class__ __class_getitem__ __contains__ __delattr__ __dir__ __doc__ __eq__ __format__
__ge__ __getattribute__ __getitem__ __getnewargs__ __getstate__ __gt__ __hash__ __init__
__init_subclass__ __iter__ __le__ __len__ __lt__ __mul__ __ne__ __new__ __reduce__ __reduce_ex__
__repr__ __rmul__ __setattr__ __sizeof__ __str__ __subclasshook__ count index`),
		"set": words(`__and__ __class__ __class_getitem__ __contains__ __delattr__ __dir__ __doc__ __eq__ __format__
__ge__ __getattribute__ __getstate__ __gt__ __hash__ __iand__ __init__ __init_subclass__ __ior__
__isub__ __iter__ __ixor__ __le__ __len__ __lt__ __ne__ __new__ __or__ __rand__ __reduce__
__reduce_ex__ __repr__ __ror__ __rsub__ __rxor__ __setattr__ __sizeof__ __str__ __sub__
__subclasshook__ __xor__ add clear copy difference difference_update discard intersection
intersection_update isdisjoint issubset issuperset pop remove symmetric_difference
symmetric_difference_update union update`),
		"frozenset": words(`__and__ __class__ __class_getitem__ __contains__ __delattr__ __dir__ __doc__ __eq__ __format__
__ge__ __getattribute__ __getstate__ __gt__ __hash__ __init__ __init_subclass__ __iter__ __le__
__len__ __lt__ __ne__ __new__ __or__ __rand__ __reduce__ __reduce_ex__ __repr__ __ror__ __rsub__
__rxor__ __setattr__ __sizeof__ __str__ __sub__ __subclasshook__ __xor__ copy difference
intersection isdisjoint issubset issuperset symmetric_difference union`),
		"bytes": words(`__add__ __bytes__ __class__ __contains__ __delattr__ __dir__ __doc__ __eq__ __format__ __ge__
__getattribute__ __getitem__ __getnewargs__ __getstate__ __gt__ __hash__ __init__ __init_subclass__
__iter__ __le__ __len__ __lt__ __mod__ __mul__ __ne__ __new__ __reduce__ __reduce_ex__ __repr__
__rmod__ __rmul__ __setattr__ __sizeof__ __str__ __subclasshook__ capitalize center count decode
endswith expandtabs find fromhex hex index isalnum isalpha isascii isdigit islower isspace istitle
isupper join ljust lower lstrip maketrans partition removeprefix removesuffix replace rfind rindex
rjust rpartition rsplit rstrip split splitlines startswith strip swapcase title translate upper
zfill`),
		"bool": words(`__abs__ __add__ __and__ __bool__ __ceil__ __class__ __delattr__ __dir__ __divmod__ __doc__ __eq__
__float__ __floor__ __floordiv__ __format__ __ge__ __getattribute__ __getnewargs__ __getstate__
__gt__ __hash__ __index__ __init__ __init_subclass__ __int__ __invert__ __le__ __lshift__ __lt__
__mod__ __mul__ __ne__ __neg__ __new__ __or__ __pos__ __pow__ __radd__ __rand__ __rdivmod__
__reduce__ __reduce_ex__ __repr__ __rfloordiv__ __rlshift__ __rmod__ __rmul__ __ror__ __round__
__rpow__ __rrshift__ __rshift__ __rsub__ __rtruediv__ __rxor__ __setattr__ __sizeof__ __str__
__sub__ __subclasshook__ __truediv__ __trunc__ __xor__ as_integer_ratio bit_count bit_length
conjugate denominator from_bytes imag numerator real to_bytes`),
		"complex": words(`__abs__ __add__ __bool__ __class__ __complex__ __delattr__ __dir__ __doc__ __eq__ __format__ __ge__
__getattribute__ __getnewargs__ __getstate__ __gt__ __hash__ __init__ __init_subclass__ __le__
__lt__ __mul__ __ne__ __neg__ __new__ __pos__ __pow__ __radd__ __reduce__ __reduce_ex__ __repr__
__rmul__ __rpow__ __rsub__ __rtruediv__ __setattr__ __sizeof__ __str__ __sub__ __subclasshook__
__truediv__ conjugate imag real`),
		"range": words(`__bool__ __class__ __contains__ __delattr__ __dir__ __doc__ __eq__ __format__ __ge__
__getattribute__ __getitem__ __getstate__ __gt__ __hash__ __init__ __init_subclass__ __iter__ __le__
__len__ __lt__ __ne__ __new__ __reduce__ __reduce_ex__ __repr__ __reversed__ __setattr__ __sizeof__
__str__ __subclasshook__ count index start step stop`),
		"slice": words(`__class__ __delattr__ __dir__ __doc__ __eq__ __format__ __ge__ __getattribute__ __getstate__ __gt__
__hash__ __init__ __init_subclass__ __le__ __lt__ __ne__ __new__ __reduce__ __reduce_ex__ __repr__
__setattr__ __sizeof__ __str__ __subclasshook__ indices start step stop`),
		"object": words(`__class__ __delattr__ __dir__ __doc__ __eq__ __format__ __ge__ __getattribute__ __getstate__ __gt__
__hash__ __init__ __init_subclass__ __le__ __lt__ __ne__ __new__ __reduce__ __reduce_ex__ __repr__
__setattr__ __sizeof__ __str__ __subclasshook__`),
		"type": words(`__abstractmethods__ __annotations__ __base__ __bases__ __basicsize__ __call__ __class__ __delattr__
__dict__ __dictoffset__ __dir__ __doc__ __eq__ __flags__ __format__ __ge__ __getattribute__
__getstate__ __gt__ __hash__ __init__ __init_subclass__ __instancecheck__ __itemsize__ __le__ __lt__
__module__ __mro__ __name__ __ne__ __new__ __or__ __prepare__ __qualname__ __reduce__ __reduce_ex__
__repr__ __ror__ __setattr__ __sizeof__ __str__ __subclasscheck__ __subclasses__ __subclasshook__
__text_signature__ __weakrefoffset__ mro`),
	}
	// cpythonModuleAttrs are the attributes of the modules gpython embeds.
	cpythonModuleAttrs = map[string]*wordSet{
		"math": words(`acos acosh asin asinh atan atan2 atanh cbrt ceil comb copysign cos cosh degrees dist e erf erfc exp
exp2 expm1 fabs factorial floor fmod frexp fsum gamma gcd hypot inf isclose isfinite isinf isnan
isqrt lcm ldexp lgamma log log10 log1p log2 modf nan nextafter perm pi pow prod radians remainder
sin sinh sqrt tan tanh tau trunc ulp`),
		"os": words(`CLD_CONTINUED CLD_DUMPED CLD_EXITED CLD_KILLED CLD_STOPPED CLD_TRAPPED DirEntry EFD_CLOEXEC
EFD_NONBLOCK EFD_SEMAPHORE EX_CANTCREAT EX_CONFIG EX_DATAERR EX_IOERR EX_NOHOST EX_NOINPUT EX_NOPERM
EX_NOUSER EX_OK EX_OSERR EX_OSFILE EX_PROTOCOL EX_SOFTWARE EX_TEMPFAIL EX_UNAVAILABLE EX_USAGE
F_LOCK F_OK F_TEST F_TLOCK F_ULOCK GRND_NONBLOCK GRND_RANDOM GenericAlias MFD_ALLOW_SEALING
MFD_CLOEXEC MFD_HUGETLB MFD_HUGE_16GB MFD_HUGE_16MB MFD_HUGE_1GB MFD_HUGE_1MB MFD_HUGE_256MB
MFD_HUGE_2GB MFD_HUGE_2MB MFD_HUGE_32MB MFD_HUGE_512KB MFD_HUGE_512MB MFD_HUGE_64KB MFD_HUGE_8MB
MFD_HUGE_MASK MFD_HUGE_SHIFT Mapping MutableMapping NGROUPS_MAX O_ACCMODE O_APPEND O_ASYNC O_CLOEXEC
O_CREAT O_DIRECT O_DIRECTORY O_DSYNC O_EXCL O_FSYNC O_LARGEFILE O_NDELAY O_NOATIME O_NOCTTY
O_NOFOLLOW O_NONBLOCK O_PATH O_RDONLY O_RDWR O_RSYNC O_SYNC O_TMPFILE O_TRUNC O_WRONLY
POSIX_FADV_DONTNEED POSIX_FADV_NOREUSE POSIX_FADV_NORMAL POSIX_FADV_RANDOM POSIX_FADV_SEQUENTIAL
POSIX_FADV_WILLNEED POSIX_SPAWN_CLOSE POSIX_SPAWN_DUP2 POSIX_SPAWN_OPEN PRIO_PGRP PRIO_PROCESS
PRIO_USER P_ALL P_NOWAIT P_NOWAITO P_PGID P_PID P_PIDFD P_WAIT PathLike RTLD_DEEPBIND RTLD_GLOBAL
RTLD_LAZY RTLD_LOCAL RTLD_NODELETE RTLD_NOLOAD RTLD_NOW RWF_APPEND RWF_DSYNC RWF_HIPRI RWF_NOWAIT
RWF_SYNC R_OK SCHED_BATCH SCHED_FIFO SCHED_IDLE SCHED_OTHER SCHED_RESET_ON_FORK SCHED_RR SEEK_CUR
SEEK_DATA SEEK_END SEEK_HOLE SEEK_SET SPLICE_F_MORE SPLICE_F_MOVE SPLICE_F_NONBLOCK ST_APPEND
ST_MANDLOCK ST_NOATIME ST_NODEV ST_NODIRATIME ST_NOEXEC ST_NOSUID ST_RDONLY ST_RELATIME
ST_SYNCHRONOUS ST_WRITE TMP_MAX WCONTINUED WCOREDUMP WEXITED WEXITSTATUS WIFCONTINUED WIFEXITED
WIFSIGNALED WIFSTOPPED WNOHANG WNOWAIT WSTOPPED WSTOPSIG WTERMSIG WUNTRACED W_OK XATTR_CREATE
XATTR_REPLACE XATTR_SIZE_MAX X_OK _Environ _check_methods _execvpe _exists _exit _fspath _fwalk
_get_exports_list _spawnvef _walk _wrap_close abc abort access altsep chdir chmod chown chroot close
closerange confstr confstr_names copy_file_range cpu_count ctermid curdir defpath device_encoding
devnull dup dup2 environ environb error eventfd eventfd_read eventfd_write execl execle execlp
execlpe execv execve execvp execvpe extsep fchdir fchmod fchown fdatasync fdopen fork forkpty
fpathconf fsdecode fsencode fspath fstat fstatvfs fsync ftruncate fwalk get_blocking get_exec_path
get_inheritable get_terminal_size getcwd getcwdb getegid getenv getenvb geteuid getgid getgrouplist
getgroups getloadavg getlogin getpgid getpgrp getpid getppid getpriority getrandom getresgid
getresuid getsid getuid getxattr initgroups isatty kill killpg lchown linesep link listdir listxattr
lockf login_tty lseek lstat major makedev makedirs memfd_create minor mkdir mkfifo mknod name nice
open openpty pardir path pathconf pathconf_names pathsep pidfd_open pipe pipe2 popen posix_fadvise
posix_fallocate posix_spawn posix_spawnp pread preadv putenv pwrite pwritev read readlink readv
register_at_fork remove removedirs removexattr rename renames replace rmdir scandir
sched_get_priority_max sched_get_priority_min sched_getaffinity sched_getparam sched_getscheduler
sched_param sched_rr_get_interval sched_setaffinity sched_setparam sched_setscheduler sched_yield
sendfile sep set_blocking set_inheritable setegid seteuid setgid setgroups setpgid setpgrp
setpriority setregid setresgid setresuid setreuid setsid setuid setxattr spawnl spawnle spawnlp
spawnlpe spawnv spawnve spawnvp spawnvpe splice st stat stat_result statvfs statvfs_result strerror
supports_bytes_environ supports_dir_fd supports_effective_ids supports_fd supports_follow_symlinks
symlink sync sys sysconf sysconf_names system tcgetpgrp tcsetpgrp terminal_size times times_result
truncate ttyname umask uname uname_result unlink unsetenv urandom utime wait wait3 wait4 waitid
waitid_result waitpid waitstatus_to_exitcode walk write writev`),
		"sys": words(`_base_executable _clear_type_cache _current_exceptions _current_frames _debugmallocstats _framework
_getframe _getquickenedcount _git _home _stdlib_dir _xoptions abiflags addaudithook api_version argv
audit base_exec_prefix base_prefix breakpointhook builtin_module_names byteorder call_tracing
copyright displayhook dont_write_bytecode exc_info excepthook exception exec_prefix executable exit
flags float_info float_repr_style get_asyncgen_hooks get_coroutine_origin_tracking_depth
get_int_max_str_digits getallocatedblocks getdefaultencoding getdlopenflags
getfilesystemencodeerrors getfilesystemencoding getprofile getrecursionlimit getrefcount getsizeof
getswitchinterval gettrace hash_info hexversion implementation int_info intern is_finalizing maxsize
maxunicode meta_path modules orig_argv path path_hooks path_importer_cache platform platlibdir
prefix pycache_prefix set_asyncgen_hooks set_coroutine_origin_tracking_depth set_int_max_str_digits
setdlopenflags setprofile setrecursionlimit setswitchinterval settrace stderr stdin
stdlib_module_names stdout thread_info unraisablehook version version_info warnoptions`),
		"time": words(`CLOCK_BOOTTIME CLOCK_MONOTONIC CLOCK_MONOTONIC_RAW CLOCK_PROCESS_CPUTIME_ID CLOCK_REALTIME CLOCK_TAI
CLOCK_THREAD_CPUTIME_ID _STRUCT_TM_ITEMS altzone asctime clock_getres clock_gettime clock_gettime_ns
clock_settime clock_settime_ns ctime daylight get_clock_info gmtime localtime mktime monotonic
monotonic_ns perf_counter perf_counter_ns process_time process_time_ns pthread_getcpuclockid sleep
strftime strptime struct_time thread_time thread_time_ns time time_ns timezone tzname tzset`),
		"string": words(`Formatter Template _ChainMap _re _sentinel_dict _string ascii_letters ascii_lowercase
ascii_uppercase capwords digits hexdigits octdigits printable punctuation whitespace`),
	}
)
