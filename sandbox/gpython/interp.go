package gpython

import (
	_ "embed"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/go-python/gpython/py"
)

// What candidates see of the interpreter: standard streams captured per
// case, the modules gpython embeds minus the dangerous parts of os, a
// pytest stand-in, and imports of files next to the target.

// Exceptions of the engine. The probes raise timeoutType at the deadline
// and processExitType for os._exit, and raise them again on every later
// probe, so that code catching BaseException cannot go on; the case gets
// its verdict from the worker's state, not from the exception.
var (
	timeoutType        = py.BaseException.NewType("TimeLimitExceeded", "The case ran past its deadline.", nil, nil)
	processExitType    = py.BaseException.NewType("ProcessExit", "os._exit() was called.", nil, nil)
	recursionErrorType = py.RuntimeError.NewType("RecursionError", "Recursion limit exceeded.", nil, nil)
)

// modulesAllowed are the modules gpython embeds that candidates may
// import. os is replaced by safeOS; tempfile and marshal are left out.
var modulesAllowed = map[string]bool{
	"builtins": true, "sys": true, "math": true, "string": true, "time": true,
	"os": true, "glob": true, "binascii": true, "pytest": true,
}

// osRemoved are the functions of gpython's os module candidates do not
// get: they run shell commands, remove files, change process-wide state
// (the working directory, the environment) or reach file descriptors of
// the worker.
var osRemoved = map[string]bool{
	"system": true, "remove": true, "removedirs": true, "rmdir": true,
	"putenv": true, "unsetenv": true, "chdir": true, "close": true, "fdopen": true,
	"_exit": true, // replaced: see worker.osExit
}

//go:embed pytest.py
var pytestSource string

// registerModules replaces gpython's os module by a safe one and adds the
// pytest stand-in. It changes gpython's registry of this process, so only
// a worker calls it.
func (w *worker) registerModules() {
	orig := py.GetModuleImpl("os")
	impl := &py.ModuleImpl{Info: orig.Info, Globals: py.StringDict{}}
	for _, m := range orig.Methods {
		switch {
		case osRemoved[m.Name]:
		case m.Name == "listdir":
			impl.Methods = append(impl.Methods, py.MustNewMethod(m.Name, w.guardPath(m, "path", readOnly), 0, m.Doc))
		case m.Name == "mkdir" || m.Name == "makedirs":
			impl.Methods = append(impl.Methods, py.MustNewMethod(m.Name, w.guardPath(m, "path", alwaysWrites), 0, m.Doc))
		default:
			impl.Methods = append(impl.Methods, m)
		}
	}
	impl.Methods = append(impl.Methods, py.MustNewMethod("_exit", w.osExit, 0, "Exit the process with status n."))
	for k, v := range orig.Globals {
		if k != "environ" {
			impl.Globals[k] = v
		}
	}
	impl.CodeSrc = "environ = {}\n" // fresh and empty in every context
	py.RegisterModule(impl)

	g := py.GetModuleImpl("glob")
	gimpl := &py.ModuleImpl{Info: g.Info, Globals: g.Globals, CodeSrc: g.CodeSrc}
	for _, m := range g.Methods {
		if m.Name == "glob" {
			m = py.MustNewMethod(m.Name, w.guardPath(m, "pathname", readOnly), 0, m.Doc)
		}
		gimpl.Methods = append(gimpl.Methods, m)
	}
	py.RegisterModule(gimpl)

	py.RegisterModule(&py.ModuleImpl{
		Info: py.ModuleInfo{Name: "pytest", Doc: "A stand-in for pytest.", FileDesc: "pytest.py"},
		Methods: []*py.Method{
			py.MustNewMethod("_issubclass", pyIsSubclass, 0, ""),
			py.MustNewMethod("_callable", pyCallable, 0, ""),
			py.MustNewMethod("_search", pySearch, 0, ""),
		},
		CodeSrc: pytestSource,
	})
}

func pyIsSubclass(self py.Object, args py.Tuple) (py.Object, error) {
	if len(args) != 2 {
		return nil, py.ExceptionNewf(py.TypeError, "_issubclass expects 2 arguments")
	}
	t, ok := args[0].(*py.Type)
	if !ok {
		return py.False, nil
	}
	want := []py.Object{args[1]}
	if tup, ok := args[1].(py.Tuple); ok {
		want = tup
	}
	for _, k := range want {
		if isSubtype(t, k) {
			return py.True, nil
		}
	}
	return py.False, nil
}

func isSubtype(t *py.Type, k py.Object) bool {
	if t == k {
		return true
	}
	for _, m := range t.Mro {
		if m == k {
			return true
		}
	}
	return false
}

func pyCallable(self py.Object, arg py.Object) (py.Object, error) {
	switch arg.(type) {
	case *py.Function, *py.Method, *py.BoundMethod, *py.Type:
		return py.True, nil
	}
	_, err := py.GetAttrString(arg, "__call__")
	return py.NewBool(err == nil), nil
}

func pySearch(self py.Object, args py.Tuple) (py.Object, error) {
	if len(args) != 2 {
		return nil, py.ExceptionNewf(py.TypeError, "_search expects 2 arguments")
	}
	pat, ok1 := args[0].(py.String)
	s, ok2 := args[1].(py.String)
	if !ok1 || !ok2 {
		return nil, py.ExceptionNewf(py.TypeError, "match must be a str")
	}
	re, err := regexp.Compile(string(pat))
	if err != nil {
		return nil, py.ExceptionNewf(py.ValueError, "bad pattern %q: %v", string(pat), err)
	}
	return py.NewBool(re.MatchString(string(s))), nil
}

// interp is the interpreter of one candidate: a fresh gpython context, so
// that nothing a candidate does to modules reaches the next one.
type interp struct {
	ctx  py.Context
	sys  *py.Module
	used bool // a case imported a file next to the target (or gpython failed): the next case needs a fresh context

	clean bool      // only pure candidates ran in it: the next pure candidate may use it (see reuse.go)
	in    *inStream // the standard streams installed last
	out   *output
	err   *output
	mod   py.StringDict // the module the next call case may use, or nil
	snap  py.StringDict // what mod must still hold
}

// newInterp makes a fresh context with the engine's builtins and sys.
func (w *worker) newInterp() *interp {
	ctx := py.NewContext(py.ContextOpts{SysArgs: []string{w.candFile}, SysPaths: []string{w.libDir}})
	it := &interp{ctx: ctx}
	b := ctx.Store().Builtins
	bind := func(name string, fn any) {
		m := py.MustNewMethod(name, fn, 0, "")
		m.Module = b
		b.Globals[name] = m
	}
	origOpen := b.Globals["open"]
	bind("__import__", func(self py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
		return w.importModule(it, args, kwargs)
	})
	bind("open", w.guardPath(origOpen, "file", openWrites))
	bind("input", w.input)
	bind("round", pyRound)
	for name, fn := range compatBuiltins {
		bind(name, fn)
	}
	b.Globals["RecursionError"] = recursionErrorType
	sys, err := ctx.GetModule("sys")
	if err != nil {
		panic(err) // NewContext imports sys
	}
	it.sys = sys
	sysBind := func(name string, fn any) {
		m := py.MustNewMethod(name, fn, 0, "")
		m.Module = sys
		sys.Globals[name] = m
	}
	sysBind("exit", sysExit)
	sysBind("setrecursionlimit", func(self, n py.Object) (py.Object, error) {
		i, ok := n.(py.Int)
		if !ok {
			return nil, py.ExceptionNewf(py.TypeError, "an integer is required")
		}
		if i < 1 {
			return nil, py.ExceptionNewf(py.ValueError, "recursion limit must be greater or equal than 1")
		}
		w.setRecursionLimit(int(min(i, 1<<30)))
		return py.None, nil
	})
	sysBind("getrecursionlimit", func(self py.Object) (py.Object, error) {
		return py.Int(w.recursionLimit), nil
	})
	return it
}

// setStreams installs the case's standard streams. Pure code cannot
// replace them (see reuse.go): when they are those installed last, they
// are still there.
func (it *interp) setStreams(in *inStream, out, errOut *output, pure bool) {
	if pure && it.in == in && it.out == out && it.err == errOut {
		return
	}
	it.in, it.out, it.err = in, out, errOut
	g := it.sys.Globals
	g["stdin"], g["__stdin__"] = in, in
	g["stdout"], g["__stdout__"] = out, out
	g["stderr"], g["__stderr__"] = errOut, errOut
}

// importModule is __import__: the modules of modulesAllowed, modules
// already imported (the candidate, the test module) and .py files next to
// the target; anything else is ImportError, as in a CPython without that
// module.
func (w *worker) importModule(it *interp, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
	if len(args) == 0 {
		return nil, py.ExceptionNewf(py.TypeError, "__import__() missing required argument 'name'")
	}
	nameObj, ok := args[0].(py.String)
	if !ok {
		return nil, py.ExceptionNewf(py.TypeError, "__import__() argument 1 must be str")
	}
	name := string(nameObj)
	top, _, _ := strings.Cut(name, ".")
	if len(args) >= 5 {
		if lvl, ok := args[4].(py.Int); ok && lvl != 0 {
			return nil, py.ExceptionNewf(py.ImportError, "attempted relative import with no known parent package")
		}
	}
	_, notLoaded := it.ctx.GetModule(top)
	switch {
	case notLoaded == nil, modulesAllowed[top]:
	case top == w.module || top == w.testModule:
	default:
		if !w.isHelper(top) {
			return nil, py.ExceptionNewf(py.ImportError, "No module named '%s'", name)
		}
		it.used = true
	}
	m, err := py.BuiltinImport(it.ctx, nil, args, kwargs, py.NewStringDict())
	if err != nil && py.IsException(py.FileNotFoundError, err) && strings.Contains(err.Error(), "Failed to resolve") {
		return nil, py.ExceptionNewf(py.ImportError, "No module named '%s'", name)
	}
	return m, err
}

// isHelper reports whether name is a module file (or package) next to the
// target.
func (w *worker) isHelper(name string) bool {
	if name == "" || strings.ContainsAny(name, "/\\") {
		return false
	}
	if fi, err := os.Stat(filepath.Join(w.libDir, name+".py")); err == nil && fi.Mode().IsRegular() {
		return true
	}
	fi, err := os.Stat(filepath.Join(w.libDir, name, "__init__.py"))
	return err == nil && fi.Mode().IsRegular()
}

// A candidate reaches files only through open(), os.listdir, os.mkdir,
// os.makedirs and glob.glob (gpython has no ctypes, mmap or raw system
// calls), so checking their paths is complete mediation: a candidate may
// use its working directory (the sandbox's private directory, with lib/)
// and the harmless devices, nothing else. The shim hides the rest anyway
// where namespaces allow; this holds without them too, and keeps out
// what the private root must show: /proc (the worker's memory, its shared
// area at /proc/self/fd/5) and /dev/stderr.

// devices a candidate may open.
var devices = map[string]bool{"/dev/null": true, "/dev/zero": true, "/dev/full": true, "/dev/random": true, "/dev/urandom": true}

// resolve is path as the worker's file system resolves it from the
// working directory dir: absolute, cleaned, with the symbolic links of what
// exists of it resolved (a candidate cannot make links, but the directory
// it is in may be reached through one).
func resolve(dir, path string) string {
	p := path
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	p = filepath.Clean(p)
	rest := ""
	for q := p; ; q = filepath.Dir(q) {
		if r, err := filepath.EvalSymlinks(q); err == nil {
			return filepath.Join(r, rest)
		}
		if q == "/" {
			return p
		}
		rest = filepath.Join(filepath.Base(q), rest)
	}
}

// within reports whether the resolved path p is dir or inside it.
func within(dir, p string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// denied is the error of a path a candidate may not use.
func denied(path string) error {
	return py.ExceptionNewf(py.PermissionError, "[Errno 13] Permission denied: '%s' (outside the sandbox's working directory)", path)
}

// readOnly and alwaysWrites say whether a call writes at its path;
// openWrites whether open() does, by its mode.
func readOnly(py.Tuple, py.StringDict) bool     { return false }
func alwaysWrites(py.Tuple, py.StringDict) bool { return true }

func openWrites(args py.Tuple, kwargs py.StringDict) bool {
	var mode py.Object = py.String("r")
	if len(args) > 1 {
		mode = args[1]
	} else if m, ok := kwargs["mode"]; ok {
		mode = m
	}
	m, ok := mode.(py.String)
	return !ok || strings.ContainsAny(string(m), "wax+")
}

// pathArg is the path argument of a call (positional or keyword), if it
// is a str or bytes.
func pathArg(args py.Tuple, kwargs py.StringDict, kw string) (string, bool) {
	var o py.Object
	if len(args) > 0 {
		o = args[0]
	} else if kwargs != nil {
		o = kwargs[kw]
	}
	switch x := o.(type) {
	case py.String:
		return string(x), true
	case py.Bytes:
		return string(x), true
	}
	return "", false
}

// guardPath wraps a function taking a path first: a path outside the
// working directory is refused before it is called. Without a path (an
// int file descriptor, none at all) the function runs as it is: open()
// of a descriptor is left to the descriptors the worker closes, and
// os.listdir() lists the working directory.
func (w *worker) guardPath(orig py.Object, kw string, writes func(py.Tuple, py.StringDict) bool) func(self py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
	return func(self py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
		if p, ok := pathArg(args, kwargs, kw); ok {
			r := resolve(w.workDir, p)
			if !within(w.workDir, r) && !devices[r] {
				return nil, denied(p)
			}
			// lib/ (the helper modules) is read-only: it is a read-only
			// mount with namespaces, a directory of mode 0555 without
			// them, which root could still write.
			if within(w.libDir, r) && writes(args, kwargs) {
				return nil, py.ExceptionNewf(py.PermissionError, "[Errno 13] Permission denied: '%s' (read-only)", p)
			}
		}
		if len(args) > 0 {
			if _, isInt := args[0].(py.Int); isInt {
				return nil, py.ExceptionNewf(py.PermissionError, "[Errno 13] Permission denied: file descriptor %v", args[0])
			}
		}
		r, err := py.Call(orig, args, kwargs)
		if f, ok := r.(*py.File); ok {
			// Closed after the candidate (see worker.closeFiles): a file
			// it left open would keep its descriptor, and its space in the
			// working directory once removed.
			w.files = append(w.files, f)
		}
		return r, err
	}
}

// closeFiles closes the files the candidate opened.
func (w *worker) closeFiles() {
	for _, f := range w.files {
		f.Close()
	}
	clear(w.files)
	w.files = w.files[:0]
}

func sysExit(self py.Object, args py.Tuple) (py.Object, error) {
	if len(args) > 1 {
		return nil, py.ExceptionNewf(py.TypeError, "exit expected at most 1 argument, got %d", len(args))
	}
	exc, err := py.ExceptionNew(py.SystemExit, args, nil)
	if err != nil {
		return nil, err
	}
	return nil, exc.(*py.Exception)
}

// osExit is os._exit(n): the case ends as if its process had exited
// (RUNTIME_ERROR "exited with status n"); the next case runs normally.
func (w *worker) osExit(self py.Object, arg py.Object) (py.Object, error) {
	n, ok := arg.(py.Int)
	if !ok {
		return nil, py.ExceptionNewf(py.TypeError, "an integer is required (got type %s)", arg.Type().Name)
	}
	st := &w.st
	st.exited = int(n) & 0xff
	st.stop = py.ExceptionNewf(processExitType, "os._exit(%d)", int(n))
	return nil, st.stop
}

// input is the builtin input(): the prompt goes to the case's stdout, the
// line comes from its stdin.
func (w *worker) input(self py.Object, args py.Tuple) (py.Object, error) {
	if len(args) > 1 {
		return nil, py.ExceptionNewf(py.TypeError, "input expected at most 1 argument, got %d", len(args))
	}
	st := &w.st
	if len(args) == 1 {
		s, err := py.Str(args[0])
		if err != nil {
			return nil, err
		}
		if _, err := st.out.write(s); err != nil {
			return nil, err
		}
	}
	if st.in.closed {
		return nil, errClosedFile()
	}
	line := st.in.readline(-1)
	if line == "" {
		return nil, py.ExceptionNewf(py.EOFError, "EOF when reading a line")
	}
	return py.String(strings.TrimSuffix(line, "\n")), nil
}

func errClosedFile() error { return py.ExceptionNewf(py.ValueError, "I/O operation on closed file.") }

// ---- standard streams -----------------------------------------------------

var (
	outputType = py.NewType("TextIOWrapper", "The captured standard output (or error) of a case.")
	inputType  = py.NewType("TextIOWrapper", "The standard input of a case.")
)

// output is sys.stdout (and sys.stderr) of a case: it keeps the first max
// characters and counts the rest.
type output struct {
	b      strings.Builder
	n      int // characters written
	max    int
	closed bool
}

func newOutput(max int) *output { return &output{max: max} }

func (o *output) Type() *py.Type { return outputType }

func (o *output) write(s py.Object) (py.Object, error) {
	if o.closed {
		return nil, errClosedFile()
	}
	str, ok := s.(py.String)
	if !ok {
		return nil, py.ExceptionNewf(py.TypeError, "write() argument must be str, not %s", s.Type().Name)
	}
	n := utf8.RuneCountInString(string(str))
	if o.n < o.max {
		o.b.WriteString(string(str))
	}
	o.n += n
	return py.Int(n), nil
}

// value returns the kept output (at most max characters).
func (o *output) value() string {
	s := o.b.String()
	if o.n > o.max && utf8.RuneCountInString(s) > o.max {
		s = string([]rune(s)[:o.max])
	}
	return s
}

func (o *output) M__enter__() (py.Object, error) { return o, nil }

func (o *output) M__exit__(a, b, c py.Object) (py.Object, error) {
	o.closed = true
	return py.None, nil
}

// inStream is sys.stdin of a case.
type inStream struct {
	data   string
	pos    int
	closed bool
}

func newInStream(s string) *inStream { return &inStream{data: s} }

func (s *inStream) Type() *py.Type { return inputType }

// readline returns the next line (with its "\n"), at most n characters
// when n >= 0; "" at the end.
func (s *inStream) readline(n int) string {
	rest := s.data[s.pos:]
	end := strings.IndexByte(rest, '\n') + 1
	if end == 0 {
		end = len(rest)
	}
	line := rest[:end]
	if n >= 0 && utf8.RuneCountInString(line) > n {
		line = string([]rune(line)[:n])
	}
	s.pos += len(line)
	return line
}

func (s *inStream) read(n int) string {
	rest := s.data[s.pos:]
	if n >= 0 && utf8.RuneCountInString(rest) > n {
		rest = string([]rune(rest)[:n])
	}
	s.pos += len(rest)
	return rest
}

func (s *inStream) M__iter__() (py.Object, error) { return s, nil }

func (s *inStream) M__next__() (py.Object, error) {
	if s.closed {
		return nil, errClosedFile()
	}
	line := s.readline(-1)
	if line == "" {
		return nil, py.StopIteration
	}
	return py.String(line), nil
}

func (s *inStream) M__enter__() (py.Object, error) { return s, nil }

func (s *inStream) M__exit__(a, b, c py.Object) (py.Object, error) {
	s.closed = true
	return py.None, nil
}

// sizeArg reads an optional size argument (None or negative: no limit).
func sizeArg(name string, args py.Tuple) (int, error) {
	if len(args) > 1 {
		return 0, py.ExceptionNewf(py.TypeError, "%s expected at most 1 argument, got %d", name, len(args))
	}
	if len(args) == 0 || args[0] == py.None {
		return -1, nil
	}
	n, ok := args[0].(py.Int)
	if !ok {
		return 0, py.ExceptionNewf(py.TypeError, "argument should be integer or None, not '%s'", args[0].Type().Name)
	}
	if n < 0 {
		return -1, nil
	}
	return int(n), nil
}

func init() {
	method := func(t *py.Type, name string, fn any) {
		t.Dict[name] = py.MustNewMethod(name, fn, 0, "")
	}
	falseFn := func(self py.Object) (py.Object, error) { return py.False, nil }
	trueFn := func(self py.Object) (py.Object, error) { return py.True, nil }
	fileno := func(self py.Object) (py.Object, error) {
		return nil, py.ExceptionNewf(py.OSError, "fileno")
	}

	method(outputType, "write", func(self, s py.Object) (py.Object, error) { return self.(*output).write(s) })
	method(outputType, "writelines", func(self, lines py.Object) (py.Object, error) {
		o := self.(*output)
		var werr error
		err := py.Iterate(lines, func(s py.Object) bool {
			_, werr = o.write(s)
			return werr != nil
		})
		if werr != nil {
			return nil, werr
		}
		if err != nil {
			return nil, err
		}
		return py.None, nil
	})
	method(outputType, "flush", func(self py.Object) (py.Object, error) {
		if self.(*output).closed {
			return nil, errClosedFile()
		}
		return py.None, nil
	})
	method(outputType, "close", func(self py.Object) (py.Object, error) {
		self.(*output).closed = true
		return py.None, nil
	})
	method(outputType, "isatty", falseFn)
	method(outputType, "readable", falseFn)
	method(outputType, "writable", trueFn)
	method(outputType, "seekable", falseFn)
	method(outputType, "fileno", fileno)
	outputType.Dict["closed"] = &py.Property{Fget: func(self py.Object) (py.Object, error) {
		return py.NewBool(self.(*output).closed), nil
	}}

	method(inputType, "read", func(self py.Object, args py.Tuple) (py.Object, error) {
		s := self.(*inStream)
		if s.closed {
			return nil, errClosedFile()
		}
		n, err := sizeArg("read", args)
		if err != nil {
			return nil, err
		}
		return py.String(s.read(n)), nil
	})
	method(inputType, "readline", func(self py.Object, args py.Tuple) (py.Object, error) {
		s := self.(*inStream)
		if s.closed {
			return nil, errClosedFile()
		}
		n, err := sizeArg("readline", args)
		if err != nil {
			return nil, err
		}
		return py.String(s.readline(n)), nil
	})
	method(inputType, "readlines", func(self py.Object, args py.Tuple) (py.Object, error) {
		s := self.(*inStream)
		if s.closed {
			return nil, errClosedFile()
		}
		var lines []py.Object
		for {
			l := s.readline(-1)
			if l == "" {
				break
			}
			lines = append(lines, py.String(l))
		}
		return py.NewListFromItems(lines), nil
	})
	method(inputType, "close", func(self py.Object) (py.Object, error) {
		self.(*inStream).closed = true
		return py.None, nil
	})
	method(inputType, "isatty", falseFn)
	method(inputType, "readable", trueFn)
	method(inputType, "writable", falseFn)
	method(inputType, "seekable", falseFn)
	method(inputType, "fileno", fileno)
	inputType.Dict["closed"] = &py.Property{Fget: func(self py.Object) (py.Object, error) {
		return py.NewBool(self.(*inStream).closed), nil
	}}
}

// dottedDecorator is the function a rewritten dotted decorator name is
// bound to (see rewriteDecorators): it resolves path in globals (or the
// builtins) when the decorator is evaluated, and calls it.
func dottedDecorator(path string, globals py.StringDict, builtins py.StringDict) *py.Method {
	return py.MustNewMethod(path, func(self py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
		parts := strings.Split(path, ".")
		obj, ok := globals[parts[0]]
		if !ok {
			if obj, ok = builtins[parts[0]]; !ok {
				return nil, py.ExceptionNewf(py.NameError, "name '%s' is not defined", parts[0])
			}
		}
		for _, p := range parts[1:] {
			var err error
			if obj, err = py.GetAttrString(obj, p); err != nil {
				return nil, err
			}
		}
		return py.Call(obj, args, kwargs)
	}, 0, "")
}
