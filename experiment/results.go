package experiment

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"repair/internal/inputerr"
	"repair/internal/userfile"
)

// Outcomes of a trial.
const (
	Plausible = "plausible" // a patch that passes every case was found
	None      = "none"      // no plausible patch within the budget
	Error     = "error"     // the trial could not run to its end
)

// SchemaVersion is the version of the Record format: it changes when a
// field changes meaning or goes away (new fields do not change it).
const SchemaVersion = 2

// Record is one line of a results file: one finished trial.
type Record struct {
	// Schema is SchemaVersion.
	Schema int `json:"schema"`
	// ID is the trial's ID (see TrialID).
	ID string `json:"id"`
	// Bug is the bug's name, Target and Tests its files relative to the
	// plan's directory.
	Bug    string `json:"bug"`
	Target string `json:"target"`
	Tests  string `json:"tests"`
	Seed   uint64 `json:"seed"`
	// Parameters holds every parameter the trial ran with, by plan key:
	// numbers as numbers, booleans as booleans, the rest as strings.
	Parameters map[string]any `json:"parameters"`
	// Outcome is Plausible, None or Error; Error says what went wrong.
	Outcome    string `json:"outcome"`
	Error      string `json:"error,omitempty"`
	StopReason string `json:"stop_reason,omitempty"`
	// Seconds is the trial's wall time (localization, search, reduction).
	Seconds         float64 `json:"seconds"`
	LocalizeSeconds float64 `json:"localize_seconds"`
	SearchSeconds   float64 `json:"search_seconds"`
	ReduceSeconds   float64 `json:"reduce_seconds"`
	// Evaluations and Generations are the search's totals.
	Evaluations int   `json:"evaluations"`
	Generations int   `json:"generations"`
	CacheHits   int64 `json:"cache_hits"`
	// BestFitness is the best fitness seen (1 for a plausible patch).
	BestFitness float64 `json:"best_fitness"`
	// FirstFixGeneration and FirstFixEvaluations are when the first
	// plausible patch was found (-1 and 0 without one).
	FirstFixGeneration  int `json:"first_fix_generation"`
	FirstFixEvaluations int `json:"first_fix_evaluations"`
	// PatchEdits and PatchLines are the size of the (reduced) patch: its
	// edits, and the lines its diff removes and adds.
	PatchEdits int `json:"patch_edits"`
	PatchLines int `json:"patch_lines"`
	// Patch is the unified diff and Describe its edits in words.
	Patch    string   `json:"patch,omitempty"`
	Describe []string `json:"describe,omitempty"`
	// Fixes is the number of distinct plausible patches (more than one
	// only with the all parameter).
	Fixes int `json:"fixes"`
	// Guard is what the overfitting guard did in the trial, Check what
	// the check of delivered fixes did (both as repair applies them, on
	// unless the plan says "guard: false" or "check: false").
	Guard Check `json:"guard"`
	// DeletesCheck: the delivered fix deletes or weakens a check of the
	// code (a raise, an assert, an if or a checking call), and so does
	// every fix found (repair.Fix.Suspect; the command line's exit 4).
	DeletesCheck bool  `json:"deletes_check,omitempty"`
	Check        Check `json:"check"`
	// Flaky names cases whose verdict changed when a program ran again:
	// a fix's validation, or the original's re-runs (repair.Result.Flaky).
	Flaky []string `json:"flaky,omitempty"`
	// Version is the tool's version, Engine the engine's description,
	// Host the machine and Finished the time the trial ended (RFC 3339).
	Version string `json:"version"`
	// Commit is the VCS revision the tool was built from ("" when the
	// build did not record it).
	Commit string `json:"commit,omitempty"`
	// Command re-runs the trial by itself: the repair command with the
	// trial's target, tests, seed, engine and every parameter, to run in
	// the plan's directory (Dir).
	Command  []string `json:"command"`
	Dir      string   `json:"dir"`
	Engine   string   `json:"engine"`
	Host     string   `json:"host,omitempty"`
	Finished string   `json:"finished"`
}

// Check is what one of a trial's checks of its fixes did.
type Check struct {
	// Ran: the check was on and applies to the bug (the check of
	// delivered fixes applies to test files run under CPython).
	Ran bool `json:"ran"`
	// Verdict is, of the delivered fix, GuardPassed or GuardSuspect for
	// the guard, CheckPassed for the check; with no fix delivered,
	// CheckRefused when the check refused every plausible one; "" when
	// there was nothing to judge.
	Verdict string `json:"verdict,omitempty"`
	// Detail is the guard's report of the delivered fix.
	Detail string `json:"detail,omitempty"`
	// Refused are the fixes the check refused: the test each failed
	// there (repair.Result.Refused).
	Refused []string `json:"refused,omitempty"`
}

// Verdicts of a trial's checks (Check.Verdict).
const (
	GuardPassed  = "passed"  // the fix changes no generated input the original handled
	GuardSuspect = "suspect" // the fix breaks an input the original handled
	CheckPassed  = "passed"  // the fix passed the tests in a process apart
	CheckRefused = "refused" // every plausible patch failed there
)

// Param returns the canonical text of the record's parameter name (""
// when absent): numbers in shortest form, as Canonical writes them.
func (r *Record) Param(name string) string {
	v, ok := r.Parameters[name]
	if !ok {
		return ""
	}
	switch x := v.(type) {
	case string:
		return x
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatFloat(x, 'f', 0, 64) // 1000000, not 1e+06
		}
		return formatFloat(x)
	case json.Number:
		return x.String()
	case bool:
		if x {
			return "true"
		}
		return "false"
	case int:
		return fmt.Sprint(x)
	}
	return fmt.Sprint(v)
}

// ResultsFile is the name of the results file of shard k of n in the
// output directory ("results.jsonl" when not sharded).
func ResultsFile(k, n int) string {
	if n <= 1 {
		return "results.jsonl"
	}
	return fmt.Sprintf("results-%d-of-%d.jsonl", k, n)
}

// appender appends records to a results file, one line each, synced to
// disk before it returns: a trial killed mid-way leaves no line.
type appender struct {
	mu     sync.Mutex
	f      *os.File
	unlock func()
}

// openAppender opens (creating) the results file for appending. A last
// line cut short by a crash is removed first; a file another process is
// writing is refused.
func openAppender(path string) (*appender, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, inputerr.New("output %s: %v", filepath.Dir(path), unwrapPath(err))
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, inputerr.New("output %s: %v", path, unwrapPath(err))
	}
	unlock, err := lockFile(f)
	if err != nil {
		f.Close()
		return nil, inputerr.New("output %s: another run is writing it (%v)", path, err)
	}
	if err := trimTornLine(f); err != nil {
		unlock()
		f.Close()
		return nil, fmt.Errorf("output %s: %w", path, err)
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		unlock()
		f.Close()
		return nil, err
	}
	return &appender{f: f, unlock: unlock}, nil
}

// trimTornLine truncates f after its last newline.
func trimTornLine(f *os.File) error {
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return err
	}
	size := fi.Size()
	buf := make([]byte, 4096)
	end := size
	for end > 0 {
		n := int64(len(buf))
		if n > end {
			n = end
		}
		if _, err := f.ReadAt(buf[:n], end-n); err != nil {
			return err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			keep := end - n + int64(i) + 1
			if keep == size {
				return nil
			}
			return f.Truncate(keep)
		}
		end -= n
	}
	return f.Truncate(0)
}

func (a *appender) append(r *Record) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	data = append(data, '\n')
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, err := a.f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", a.f.Name(), err)
	}
	if err := a.f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", a.f.Name(), err)
	}
	return nil
}

func (a *appender) close() error {
	a.unlock()
	return a.f.Close()
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Results are records read from results files.
type Results struct {
	// Records are the distinct trials, in the order first read.
	Records []Record
	// Lines is the number of records read, Duplicates the records
	// dropped because another line has the same trial ID.
	Lines, Duplicates int
	// Torn names files whose last line was cut short (ignored).
	Torn []string
}

// ReadResults reads results files; a directory stands for the *.jsonl
// files in it. Trials are de-duplicated by ID: a plausible or none line
// wins over an error line of the same trial (a rerun after a failure),
// else the first line read wins. A malformed line is an inputerr naming
// the file and line, except a last line without its newline, which a
// killed run leaves behind and which is skipped.
func ReadResults(paths ...string) (*Results, error) {
	var files []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, inputerr.New("%s: %v", p, unwrapPath(err))
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		m, _ := filepath.Glob(filepath.Join(p, "*.jsonl"))
		sort.Strings(m)
		files = append(files, m...)
	}
	res := &Results{}
	index := map[string]int{}
	for _, file := range files {
		err := readFile(file, res, func(r Record) {
			i, seen := index[r.ID]
			if !seen {
				index[r.ID] = len(res.Records)
				res.Records = append(res.Records, r)
				return
			}
			res.Duplicates++
			if res.Records[i].Outcome == Error && r.Outcome != Error {
				res.Records[i] = r
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return res, nil
}

func readFile(path string, res *Results, add func(Record)) error {
	f, err := userfile.Open(path) // a FIFO or a device is refused
	if err != nil {
		if inputerr.Is(err) {
			return err
		}
		return inputerr.New("%s: %v", path, unwrapPath(err))
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	for line := 1; ; line++ {
		data, err := br.ReadBytes('\n')
		if err == io.EOF {
			if len(bytes.TrimSpace(data)) > 0 {
				res.Torn = append(res.Torn, path)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
		if len(bytes.TrimSpace(data)) == 0 {
			continue
		}
		var r Record
		if err := json.Unmarshal(data, &r); err != nil {
			return inputerr.New("%s:%d: not a result line: %v", path, line, err)
		}
		switch {
		case r.ID == "":
			return inputerr.New("%s:%d: not a result line: no \"id\"", path, line)
		case r.Outcome != Plausible && r.Outcome != None && r.Outcome != Error:
			return inputerr.New("%s:%d: unknown outcome %q", path, line, r.Outcome)
		}
		res.Lines++
		add(r)
	}
}

// doneIDs returns the IDs of the trials that have a plausible or none line
// in the results files of dir (every shard's): they need not run again.
// Error lines do not count: those trials run again.
func doneIDs(dir string) (map[string]bool, error) {
	done := map[string]bool{}
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return done, nil
	}
	res, err := ReadResults(dir)
	if err != nil {
		return nil, err
	}
	for _, r := range res.Records {
		if r.Outcome != Error {
			done[r.ID] = true
		}
	}
	return done, nil
}

// patchLines counts the lines a unified diff removes and adds (the
// headers before a file's first hunk excluded).
func patchLines(diff string) int {
	n := 0
	inHunk := false
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "@@"):
			inHunk = true
		case strings.HasPrefix(l, "--- ") && !inHunk, strings.HasPrefix(l, "diff "):
			inHunk = false
		case inHunk && (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")):
			n++
		}
	}
	return n
}
