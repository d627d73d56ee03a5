// Loading what a repair runs on: the target files, the suite, the
// donors.

package session

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"repair/donors"
	"repair/fitness"
	"repair/internal/inputerr"
	"repair/program"
)

// Config is what opens a repair session: the target and its suite, the
// engine that runs candidates, the checks around the search. Its fields
// are the flags of the commands that run a program (cmd/repair), which
// validates nothing: Load and Open do, naming the flag.
type Config struct {
	// Targets are the files under test (--target; empty: the suite's
	// "target"); a directory stands for the Python files under it.
	Targets []string
	// Tests is the suite (--tests).
	Tests string
	// Donors are programs whose code joins the ingredients (--donors),
	// the DonorsMax closest to the target.
	Donors    []string
	DonorsMax int
	// Engine, Workers, Isolation and Python select and size the engine
	// (--engine, --workers, --sandbox, --python); Workers 0 is one per
	// CPU (Workers resolves it).
	Engine    string
	Workers   int
	Isolation string
	Python    string
	// Executors are the `repair serve` servers that evaluate candidates
	// instead of a local engine; ExecutorToken is their bearer token file.
	Executors     []string
	ExecutorToken string
	// Env and PassEnv add variables to the candidates' environment
	// (--env KEY=VALUE, --pass-env NAME).
	Env, PassEnv []string
	// AllowMismatch goes on when the original's verdicts under the tool
	// differ from plain pytest's (--allow-mismatch).
	AllowMismatch bool
	// CaseTimeout, when set, is every case's limit of CPU time
	// (--case-timeout), over the suite's.
	CaseTimeout time.Duration
	// GuardInputs is the number of inputs the overfitting guard generates
	// next to the suite's (--guard-inputs; 0: no guard).
	GuardInputs int
	// NoCheck turns off the check of delivered fixes (a test file's tests
	// in a process apart from the code under test), which is on by
	// default wherever it applies.
	NoCheck bool
	// Lenient runs programs with injected values for what they miss
	// (--lenient): no parity check, no guard.
	Lenient bool
}

// Input is a parsed target with its suite.
type Input struct {
	Prog  *program.Program
	Suite *fitness.Suite
	Path  string // the target as shown in messages and diffs
	// Paths are the target files, Path first: more than one when several
	// files are repaired together (Prog is then their joined program).
	Paths []string
	// Notes are said once on stderr (donors that were skipped or used).
	Notes []string
}

// Load reads the suite and the target, and checks they fit together.
func (f *Config) Load() (*Input, error) {
	l, parse, err := f.StartLoad()
	if err != nil {
		return nil, err
	}
	if err := parse(); err != nil {
		return nil, err
	}
	return l, nil
}

// StartLoad is Load in two steps: it reads the suite and finds the
// targets (what an engine needs to start), and parse parses the targets
// into l.Prog (with donors, l.Notes) and checks they fit the suite. A
// command may start its engine while parse runs (a large file's parse
// takes tens of milliseconds); parse touches only l.Prog and l.Notes.
func (f *Config) StartLoad() (l *Input, parse func() error, err error) {
	if f.Tests == "" {
		return nil, nil, inputerr.New("--tests is required")
	}
	if f.CaseTimeout < 0 || f.CaseTimeout.Seconds() > fitness.MaxTimeout || (f.CaseTimeout > 0 && f.CaseTimeout < time.Millisecond) {
		return nil, nil, inputerr.New("--case-timeout must be between 1ms and %v, got %v", time.Duration(fitness.MaxTimeout)*time.Second, f.CaseTimeout)
	}
	var suite *fitness.Suite
	var leftNotes []string
	if files, several, left, err := fitness.TestFilesLeft(f.Tests); err != nil {
		return nil, nil, err
	} else if several {
		for _, p := range left {
			leftNotes = append(leftNotes, fmt.Sprintf("%s: its name is no Python module name, and the sandbox imports a test file by its name: left out (rename it to run it)", p))
		}
		if suite, err = fitness.LoadFiles(f.Tests, files); err != nil {
			return nil, nil, err
		}
	} else if suite, err = fitness.Load(f.Tests); err != nil {
		return nil, nil, err
	}
	if f.CaseTimeout > 0 {
		suite.SetCaseTimeout(f.CaseTimeout.Seconds())
	}
	targets, err := expandTargets(f.Targets, f.Tests)
	if err != nil {
		return nil, nil, err
	}
	target := ""
	if len(targets) > 0 {
		target = targets[0]
	}
	if target == "" {
		target = suite.Target
	}
	if target == "" {
		return nil, nil, inputerr.New("--target is required (the suite %s names no \"target\")", f.Tests)
	}
	if suite.Doctest && !samePath(target, suite.Target) {
		return nil, nil, inputerr.New("--target %s: a doctest suite tests the file it comes from (%s); drop --target or name that file", target, suite.Target)
	}
	if len(targets) > 1 && suite.Doctest {
		return nil, nil, inputerr.New("--target: a doctest suite tests one file")
	}
	if len(f.Donors) > 0 && len(targets) > 1 {
		return nil, nil, inputerr.New("--donors: with one --target only")
	}
	paths := targets
	if len(paths) < 2 {
		paths = []string{target}
	}
	// The files are read here, before any engine starts: a device or a
	// FIFO is refused, not read without end by an engine.
	srcs := make([][]byte, len(paths))
	for i, t := range paths {
		if srcs[i], err = program.ReadFile(t); err != nil {
			return nil, nil, err
		}
	}
	l = &Input{Suite: suite, Path: target, Paths: paths}
	parse = func() error {
		var prog *program.Program
		var err error
		if len(targets) > 1 {
			if prog, err = parseTargets(targets, srcs); err != nil {
				return err
			}
		} else if prog, err = program.Parse(target, srcs[0]); err != nil {
			return err
		}
		var notes []string
		if len(f.Donors) > 0 {
			if prog, notes, err = withDonors(prog, target, f.Donors, f.DonorsMax, f.Tests); err != nil {
				return err
			}
		}
		prog.Path = DisplayPath(target)
		if err := suite.CheckTarget(target, prog.Scopes[0].Names); err != nil {
			return err
		}
		l.Prog, l.Notes = prog, append(leftNotes, notes...)
		return nil
	}
	return l, parse, nil
}

// DisplayPath is the path a patch names the target by, so that it applies
// from a root with `git apply` or `patch -p1`: relative to the root of the
// git work tree holding the target, else to the working directory when the
// target lies below it, else the target's base name (apply it from the
// target's directory). Never "../x.py" or an absolute path, which neither
// tool accepts in a/ b/ headers.
func DisplayPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if root := gitRoot(filepath.Dir(abs)); root != "" {
		if rel, ok := below(root, abs); ok {
			return rel
		}
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, ok := below(wd, abs); ok {
			return rel
		}
	}
	return filepath.Base(abs)
}

// below is abs relative to dir, in slashes, when abs lies below dir.
func below(dir, abs string) (string, bool) {
	rel, err := filepath.Rel(dir, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// gitRoot is the nearest directory from dir upwards that holds a .git
// (a directory, or a file in a linked work tree), or "".
func gitRoot(dir string) string {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// samePath reports whether a and b name the same file.
func samePath(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return os.SameFile(fa, fb)
}

// maxTargets bounds the files repaired together.
const maxTargets = 64

// expandTargets resolves the --target values: files as given, a
// directory as the Python files under it that are not tests (test_*.py,
// *_test.py, conftest.py) nor the suite, sorted.
func expandTargets(values []string, suite string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	suiteAbs, _ := filepath.Abs(suite)
	add := func(p string) {
		abs, err := filepath.Abs(p)
		if err != nil || seen[abs] || abs == suiteAbs {
			return
		}
		seen[abs] = true
		out = append(out, p)
	}
	for _, v := range values {
		if v == "" {
			continue
		}
		fi, err := os.Stat(v)
		if err != nil || !fi.IsDir() {
			add(v) // reading it says what is wrong
			continue
		}
		err = filepath.WalkDir(v, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			name := d.Name()
			if d.IsDir() {
				if p != v && (strings.HasPrefix(name, ".") || name == "__pycache__" || name == "venv" || name == "node_modules") {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(name, ".py") && !strings.HasPrefix(name, "test_") && !strings.HasSuffix(name, "_test.py") && name != "conftest.py" && d.Type().IsRegular() {
				add(p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(out) > maxTargets {
		return nil, inputerr.New("--target: %d files; at most %d are repaired together", len(out), maxTargets)
	}
	if len(values) > 0 && len(out) == 0 {
		return nil, inputerr.New("--target %s: no Python file to repair", strings.Join(values, ","))
	}
	return out, nil
}

// parseTargets parses several target files as one joined program.
func parseTargets(targets []string, srcs [][]byte) (*program.Program, error) {
	paths := make([]string, len(targets))
	for i, t := range targets {
		if _, err := program.Parse(t, srcs[i]); err != nil {
			return nil, err
		}
		paths[i] = DisplayPath(t)
	}
	p, err := program.ParseFiles(paths, srcs)
	if err != nil {
		return nil, inputerr.Wrap(err)
	}
	return p, nil
}

// withDonors re-parses the target with the donorsMax donors most similar
// to it; notes say which were used and which were skipped.
func withDonors(prog *program.Program, target string, paths []string, max int, suite string) (*program.Program, []string, error) {
	if max <= 0 {
		return nil, nil, inputerr.New("--donors-max must be positive, got %d", max)
	}
	skip := map[string]bool{}
	for _, p := range []string{target, suite} {
		if abs, err := filepath.Abs(p); err == nil {
			skip[abs] = true
		}
	}
	files, err := donors.Collect(paths, skip)
	if err != nil {
		return nil, nil, inputerr.New("--donors: %v", Unwrap(err))
	}
	picked, skipped := donors.Pick(prog.Src, files, max)
	var notes []string
	for _, s := range skipped {
		notes = append(notes, "--donors: skipped "+s)
	}
	if len(picked) == 0 {
		notes = append(notes, "--donors: no donor parses; searching without")
		return prog, notes, nil
	}
	dp := make([]string, len(picked))
	ds := make([][]byte, len(picked))
	var names []string
	for i, d := range picked {
		dp[i], ds[i] = DisplayPath(d.Path), d.Src
		names = append(names, fmt.Sprintf("%s (%.2f)", dp[i], d.Similarity))
	}
	notes = append(notes, fmt.Sprintf("donors, most similar first: %s", strings.Join(names, ", ")))
	p, err := program.ParseWithDonors(DisplayPath(target), prog.Src, dp, ds)
	if err != nil {
		return nil, nil, inputerr.Wrap(err)
	}
	return p, notes, nil
}
