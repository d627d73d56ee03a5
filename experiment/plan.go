package experiment

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/internal/userfile"
	"repair/program"
	"repair/repair"
	"repair/sandbox"
)

// Plan is a loaded, validated experiment plan.
type Plan struct {
	// Path is the plan file and Dir its directory, against which the
	// plan's relative paths are resolved.
	Path, Dir string
	// Bugs are the programs to repair, in plan order.
	Bugs []*Bug
	// Seeds are the seeds every configuration runs with.
	Seeds []uint64
	// Configs are the parameter settings (the grid's combinations), each
	// with the value of every parameter (see Effective), in plan order and
	// without duplicates.
	Configs []Values
	// Varied are the parameters that take more than one value in Configs,
	// in the order of Params.
	Varied []string
	// Output is the directory the results files are written to.
	Output string
	// Engine, Sandbox and Python select and configure the engine
	// (--engine, --sandbox, --python); Workers is the number of worker
	// processes of the whole run (0: one per CPU).
	Engine, Sandbox, Python string
	Workers                 int
}

// Bug is one program with its suite.
type Bug struct {
	// Name identifies the bug in results: its folder as the plan names it
	// (relative to the plan's directory, or absolute when the plan gives
	// an absolute path; slash-separated), or the name the plan gives.
	Name string
	// Path is the target's path in the patches' diff headers: relative to
	// the bug's folder, so that `patch -p1` applies them there.
	Path string
	// Target and Tests are the files, as opened; TargetRel and TestsRel
	// are relative to the plan's directory.
	Target, Tests       string
	TargetRel, TestsRel string
	// Src is the target's source and Suite its loaded suite (read-only,
	// shared by the bug's trials).
	Src   []byte
	Suite *fitness.Suite
}

// Trial is one repair run of a plan: a bug, a configuration and a seed.
type Trial struct {
	// ID is a stable hash of (bug name, every parameter value, seed): the
	// same trial has the same ID in every run, shard and version of the
	// plan, and a different ID if anything it depends on changes.
	ID     string
	Bug    *Bug
	Params Values
	Seed   uint64
	// Config is the index of Params in Plan.Configs.
	Config int
}

// Command is the repair command that runs the trial by itself, from the
// plan's directory: its target, tests and seed, the engine and sandbox,
// and every parameter as a --flag=value (a preset first, when set).
func (t Trial) Command(engine string, iso sandbox.Isolation) []string {
	cmd := []string{"repair", "--target", t.Bug.TargetRel, "--tests", t.Bug.TestsRel,
		"--seed", strconv.FormatUint(t.Seed, 10), "--engine", engine}
	if name := isolationName(iso); name != "auto" {
		cmd = append(cmd, "--sandbox", name)
	}
	for _, p := range Params {
		v, ok := t.Params[p.Name]
		if !ok || (p.Name == "preset" && v == "") {
			continue
		}
		cmd = append(cmd, p.Flag+"="+v)
	}
	return cmd
}

// TrialID returns the ID of the trial of bug with params and seed: the
// first 16 hex digits of the SHA-256 of the canonical JSON
// {"bug":…,"parameters":{…sorted…},"seed":…}.
func TrialID(bug string, params Values, seed uint64) string {
	data, err := json.Marshal(struct {
		Bug    string `json:"bug"`
		Params Values `json:"parameters"`
		Seed   uint64 `json:"seed"`
	}{bug, params, seed})
	if err != nil {
		panic(err) // strings only
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// InShard reports whether the trial with the given ID belongs to shard k
// of n (1 <= k <= n): the first 64 bits of the ID modulo n equal k-1. A
// trial's shard thus depends only on the trial, not on the rest of the
// plan: growing a plan never moves a trial to another shard.
func InShard(id string, k, n int) bool {
	if n <= 1 {
		return true
	}
	b, err := hex.DecodeString(id)
	if err != nil || len(b) < 8 {
		return false
	}
	return binary.BigEndian.Uint64(b[:8])%uint64(n) == uint64(k-1)
}

// Trials lists every trial of the plan in the canonical order: by bug (plan
// order), then configuration (plan order), then seed.
func (p *Plan) Trials() []Trial {
	var out []Trial
	for _, b := range p.Bugs {
		for ci, c := range p.Configs {
			for _, s := range p.Seeds {
				out = append(out, Trial{ID: TrialID(b.Name, c, s), Bug: b, Params: c, Seed: s, Config: ci})
			}
		}
	}
	return out
}

// Options returns the search options of the trial (without Workers,
// Progress and Log, which the runner sets).
func (t Trial) Options() repair.Options {
	o, err := Options(t.Params)
	if err != nil {
		panic(fmt.Sprintf("trial %s: options validated when the plan was loaded: %v", t.ID, err))
	}
	o.Seed = t.Seed
	return o
}

// planKeys are the top-level keys of a plan.
var planKeys = []string{"bugs", "seeds", "budget", "parameters", "output", "engine", "sandbox", "python", "workers"}

// budgetKeys map the keys of "budget" to parameters.
var budgetKeys = map[string]string{"time": "time_budget", "evaluations": "evaluations", "generations": "generations"}

// parser reads a plan's YAML nodes, reporting errors at their line.
type parser struct {
	path   string // as given, for messages
	dir    string // the plan's directory, for opening files
	absDir string // the same, absolute, for naming them
}

func (ps *parser) errorf(n *yaml.Node, key, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if key != "" {
		msg = key + ": " + msg
	}
	if n != nil && n.Line > 0 {
		return inputerr.New("%s:%d: %s", ps.path, n.Line, msg)
	}
	return inputerr.New("%s: %s", ps.path, msg)
}

// Load reads and validates the plan at path (YAML or JSON): every bug
// folder holds a suite and a target that load, every parameter value is
// one the repair command accepts, every combination passes the repair
// command's checks. Errors are inputerr errors of one line that name the
// file and the line or key at fault.
func Load(path string) (*Plan, error) {
	data, err := userfile.Read(path, MaxPlanSize)
	if err != nil {
		if inputerr.Is(err) {
			return nil, err
		}
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, inputerr.New("%s: %v", path, err)
	}
	return Parse(path, filepath.Dir(path), data)
}

// MaxPlanSize bounds a plan file.
const MaxPlanSize = 16 << 20

// Parse is Load with the file's contents given; dir is the directory
// relative paths are resolved against.
func Parse(path, dir string, data []byte) (*Plan, error) {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	ps := &parser{path: path, dir: dir, absDir: absDir}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			// An empty file (or only comments) decodes to nothing.
			return nil, inputerr.New("%s: empty: a plan is a mapping with keys %s", path, strings.Join(planKeys, ", "))
		}
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		var line int
		if n, _ := fmt.Sscanf(msg, "line %d:", &line); n == 1 {
			_, msg, _ = strings.Cut(msg, ": ")
			return nil, inputerr.New("%s:%d: %s", path, line, msg)
		}
		return nil, inputerr.New("%s: %s", path, msg)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, ps.errorf(&doc, "", "a plan is a mapping with keys %s", strings.Join(planKeys, ", "))
	}
	root := doc.Content[0]
	fields, err := ps.mapping(root, "", planKeys)
	if err != nil {
		return nil, err
	}
	plan := &Plan{Path: path, Dir: absDir, Engine: "auto", Sandbox: "auto"}

	for _, k := range []string{"engine", "sandbox", "python"} {
		n, ok := fields[k]
		if !ok {
			continue
		}
		s, err := ps.scalar(n, k)
		if err != nil {
			return nil, err
		}
		switch k {
		case "engine":
			if !slices.Contains(repair.Engines, s) {
				return nil, ps.errorf(n, k, "must be one of %s, got %q", strings.Join(repair.Engines, ", "), s)
			}
			plan.Engine = s
		case "sandbox":
			if _, err := ParseIsolation(s); err != nil {
				return nil, ps.errorf(n, k, "%v", err)
			}
			plan.Sandbox = s
		case "python":
			plan.Python = s
		}
	}
	if n, ok := fields["workers"]; ok {
		w, err := ps.integer(n, "workers")
		if err != nil {
			return nil, err
		}
		if w < 0 || w > 1024 {
			return nil, ps.errorf(n, "workers", "must be from 0 (one per CPU) to 1024, got %d", w)
		}
		plan.Workers = int(w)
	}
	plan.Output = filepath.Join(dir, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))+"-results")
	if n, ok := fields["output"]; ok {
		s, err := ps.scalar(n, "output")
		if err != nil {
			return nil, err
		}
		if s == "" {
			return nil, ps.errorf(n, "output", "must not be empty")
		}
		plan.Output = ps.resolve(s)
	}

	n, ok := fields["seeds"]
	if !ok {
		return nil, ps.errorf(root, "", "missing \"seeds\" (a count such as 10, or a list of seeds)")
	}
	if plan.Seeds, err = ps.seeds(n); err != nil {
		return nil, err
	}

	fixed := Values{}
	fixedAt := map[string]string{}
	if n, ok := fields["budget"]; ok {
		keys := []string{"time", "evaluations", "generations"}
		bf, err := ps.mapping(n, "budget", keys)
		if err != nil {
			return nil, err
		}
		for _, k := range keys {
			vn, ok := bf[k]
			if !ok {
				continue
			}
			s, err := ps.scalar(vn, "budget."+k)
			if err != nil {
				return nil, err
			}
			name := budgetKeys[k]
			c, err := Canonical(name, s)
			if err != nil {
				return nil, ps.errorf(vn, "budget."+k, "%v", err)
			}
			fixed[name] = c
			fixedAt[name] = fmt.Sprintf("budget.%s (line %d)", k, vn.Line)
		}
	}

	n, ok = fields["parameters"]
	var grids []Values
	if ok {
		if grids, err = ps.parameters(n, fixed, fixedAt); err != nil {
			return nil, err
		}
	} else {
		grids = []Values{fixed}
	}
	seen := map[string]bool{}
	for _, g := range grids {
		o, err := Options(g)
		if err != nil {
			return nil, ps.errorf(ps.lineOfFlag(n, err), "parameters", "%s: %v", describe(g), err)
		}
		eff := Effective(o, g["preset"])
		key := TrialID("", eff, 0)
		if !seen[key] {
			seen[key] = true
			plan.Configs = append(plan.Configs, eff)
		}
	}
	for _, p := range Params {
		vals := map[string]bool{}
		for _, c := range plan.Configs {
			vals[c[p.Name]] = true
		}
		if len(vals) > 1 {
			plan.Varied = append(plan.Varied, p.Name)
		}
	}

	n, ok = fields["bugs"]
	if !ok {
		return nil, ps.errorf(root, "", "missing \"bugs\" (a list of folder globs or {tests, target} pairs)")
	}
	if plan.Bugs, err = ps.bugs(n, plan.Output); err != nil {
		return nil, err
	}
	return plan, nil
}

// describe prints a combination of set values, for messages.
func describe(v Values) string {
	if len(v) == 0 {
		return "the defaults"
	}
	var keys []string
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"="+v[k])
	}
	return "combination " + strings.Join(parts, " ")
}

// lineOfFlag finds, below n, the key of the parameter whose flag err names
// ("--tournament-size must be …"), to point at its line; else n.
func (ps *parser) lineOfFlag(n *yaml.Node, err error) *yaml.Node {
	if n == nil {
		return nil
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "--") {
		return n
	}
	flag, _, _ := strings.Cut(msg[2:], " ")
	name := strings.ReplaceAll(strings.TrimSuffix(flag, ":"), "-", "_")
	var found *yaml.Node
	var walk func(*yaml.Node)
	walk = func(m *yaml.Node) {
		if found != nil {
			return
		}
		if m.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(m.Content); i += 2 {
				if m.Content[i].Value == name {
					found = m.Content[i]
					return
				}
			}
		}
		for _, c := range m.Content {
			walk(c)
		}
	}
	walk(n)
	if found == nil {
		return n
	}
	return found
}

// mapping returns the values of n's keys, refusing unknown and repeated
// keys; known == nil accepts every key.
func (ps *parser) mapping(n *yaml.Node, key string, known []string) (map[string]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		want := "a mapping"
		if known != nil {
			want += " with keys " + strings.Join(known, ", ")
		}
		return nil, ps.errorf(n, key, "must be %s", want)
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, ps.errorf(k, key, "keys must be names")
		}
		if _, dup := out[k.Value]; dup {
			return nil, ps.errorf(k, join(key, k.Value), "given twice")
		}
		if known != nil && !slices.Contains(known, k.Value) {
			return nil, ps.errorf(k, key, "unknown key %q (known: %s)", k.Value, strings.Join(known, ", "))
		}
		out[k.Value] = v
	}
	return out, nil
}

func join(key, sub string) string {
	if key == "" {
		return sub
	}
	return key + "." + sub
}

func (ps *parser) scalar(n *yaml.Node, key string) (string, error) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", ps.errorf(n, key, "must be a single value")
	}
	return n.Value, nil
}

func (ps *parser) integer(n *yaml.Node, key string) (int64, error) {
	s, err := ps.scalar(n, key)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, ps.errorf(n, key, "want an integer, got %q", s)
	}
	return v, nil
}

// resolve makes a plan-relative path usable from the working directory.
func (ps *parser) resolve(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(ps.dir, filepath.FromSlash(p))
}

// rel is p relative to the plan's directory, slash-separated.
func (ps *parser) rel(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	r, err := filepath.Rel(ps.absDir, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(r)
}

// name is a bug's name: the folder dir relative to the plan's directory,
// or absolute if the plan wrote an absolute path.
func (ps *parser) name(dir string, abs bool) string {
	if abs {
		return filepath.ToSlash(filepath.Clean(dir))
	}
	return ps.rel(dir)
}

// seeds reads "seeds": a count N (seeds 1 to N) or a list of seeds.
func (ps *parser) seeds(n *yaml.Node) ([]uint64, error) {
	if n.Kind == yaml.SequenceNode {
		var out []uint64
		for i, e := range n.Content {
			key := fmt.Sprintf("seeds[%d]", i)
			s, err := ps.scalar(e, key)
			if err != nil {
				return nil, err
			}
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return nil, ps.errorf(e, key, "want a seed (an integer >= 0), got %q", s)
			}
			if slices.Contains(out, v) {
				return nil, ps.errorf(e, key, "seed %d is listed twice", v)
			}
			out = append(out, v)
		}
		if len(out) == 0 {
			return nil, ps.errorf(n, "seeds", "the list is empty")
		}
		return out, nil
	}
	c, err := ps.integer(n, "seeds")
	if err != nil {
		return nil, ps.errorf(n, "seeds", "want a count such as 10, or a list of seeds")
	}
	if c < 1 || c > 1_000_000 {
		return nil, ps.errorf(n, "seeds", "the count must be from 1 to 1000000, got %d", c)
	}
	out := make([]uint64, c)
	for i := range out {
		out[i] = uint64(i + 1)
	}
	return out, nil
}

// parameters reads "parameters": one grid (a mapping from parameter names
// to a value or a list of values) or a list of grids, and returns every
// combination, each with the fixed (budget) values added.
func (ps *parser) parameters(n *yaml.Node, fixed Values, fixedAt map[string]string) ([]Values, error) {
	grids := []*yaml.Node{n}
	keys := []string{"parameters"}
	if n.Kind == yaml.SequenceNode {
		grids = n.Content
		keys = nil
		for i := range grids {
			keys = append(keys, fmt.Sprintf("parameters[%d]", i))
		}
		if len(grids) == 0 {
			return nil, ps.errorf(n, "parameters", "the list of grids is empty")
		}
	}
	var out []Values
	for gi, g := range grids {
		if g.Kind != yaml.MappingNode {
			return nil, ps.errorf(g, keys[gi], "must be a mapping from parameter names to a value or a list of values")
		}
		combos := []Values{maps(fixed)}
		if _, err := ps.mapping(g, keys[gi], nil); err != nil {
			return nil, err
		}
		for i := 0; i+1 < len(g.Content); i += 2 {
			kn, vn := g.Content[i], g.Content[i+1]
			name := kn.Value
			key := join(keys[gi], name)
			if _, ok := ParamByName(name); !ok {
				return nil, ps.errorf(kn, keys[gi], "%v", unknownParam(name))
			}
			if at, ok := fixedAt[name]; ok {
				return nil, ps.errorf(kn, key, "already set by %s", at)
			}
			items := []*yaml.Node{vn}
			if vn.Kind == yaml.SequenceNode {
				items = vn.Content
				if len(items) == 0 {
					return nil, ps.errorf(vn, key, "the list of values is empty")
				}
			}
			var vals []string
			for j, it := range items {
				ikey := key
				if vn.Kind == yaml.SequenceNode {
					ikey = fmt.Sprintf("%s[%d]", key, j)
				}
				s, err := ps.scalar(it, ikey)
				if err != nil {
					return nil, err
				}
				c, err := Canonical(name, s)
				if err != nil {
					return nil, ps.errorf(it, ikey, "%v", err)
				}
				if slices.Contains(vals, c) {
					return nil, ps.errorf(it, ikey, "value %s is listed twice", c)
				}
				vals = append(vals, c)
			}
			var next []Values
			for _, c := range combos {
				for _, v := range vals {
					m := maps(c)
					m[name] = v
					next = append(next, m)
				}
			}
			combos = next
		}
		out = append(out, combos...)
	}
	return out, nil
}

func maps(v Values) Values {
	m := make(Values, len(v)+1)
	for k, x := range v {
		m[k] = x
	}
	return m
}

// bugs reads "bugs": folder globs and {tests, target, name} pairs.
func (ps *parser) bugs(n *yaml.Node, output string) ([]*Bug, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, ps.errorf(n, "bugs", "must be a list of folder globs or {tests, target} pairs")
	}
	if len(n.Content) == 0 {
		return nil, ps.errorf(n, "bugs", "the list is empty")
	}
	var out []*Bug
	where := map[string]string{}
	add := func(b *Bug, at *yaml.Node, key string) error {
		if prev, dup := where[b.Name]; dup {
			return ps.errorf(at, key, "bug %q is already listed by %s", b.Name, prev)
		}
		where[b.Name] = fmt.Sprintf("%s (line %d)", key, at.Line)
		out = append(out, b)
		return nil
	}
	outAbs, _ := filepath.Abs(output)
	for i, e := range n.Content {
		key := fmt.Sprintf("bugs[%d]", i)
		if e.Kind == yaml.MappingNode {
			f, err := ps.mapping(e, key, []string{"tests", "target", "name"})
			if err != nil {
				return nil, err
			}
			tn, ok := f["tests"]
			if !ok {
				return nil, ps.errorf(e, key, "missing \"tests\" (the suite file)")
			}
			tests, err := ps.scalar(tn, key+".tests")
			if err != nil {
				return nil, err
			}
			var target string
			if t, ok := f["target"]; ok {
				if target, err = ps.scalar(t, key+".target"); err != nil {
					return nil, err
				}
				target = ps.resolve(target)
			}
			b, err := ps.loadBug(ps.resolve(tests), target)
			if err != nil {
				return nil, ps.errorf(e, key, "%v", err)
			}
			b.Name = ps.name(filepath.Dir(b.Tests), filepath.IsAbs(tests))
			if nn, ok := f["name"]; ok {
				if b.Name, err = ps.scalar(nn, key+".name"); err != nil {
					return nil, err
				}
				if b.Name == "" {
					return nil, ps.errorf(nn, key+".name", "must not be empty")
				}
			}
			if err := add(b, e, key); err != nil {
				return nil, err
			}
			continue
		}
		pat, err := ps.scalar(e, key)
		if err != nil {
			return nil, ps.errorf(e, key, "must be a folder glob or a {tests, target} pair")
		}
		matches, err := filepath.Glob(ps.resolve(pat))
		if err != nil {
			return nil, ps.errorf(e, key, "bad glob %q: %v", pat, err)
		}
		sort.Strings(matches)
		wild := strings.ContainsAny(pat, "*?[")
		found := 0
		for _, m := range matches {
			fi, err := os.Stat(m)
			if err != nil || !fi.IsDir() {
				continue // bench/README.md next to the bug folders
			}
			if abs, _ := filepath.Abs(m); abs == outAbs {
				continue
			}
			if wild && !hasPython(m) {
				continue // results/, plots/, docs/ next to the bug folders
			}
			found++
			tests, err := findSuite(m)
			if err != nil {
				return nil, ps.errorf(e, key, "%s: %v", ps.rel(m), err)
			}
			b, err := ps.loadBug(tests, "")
			if err != nil {
				return nil, ps.errorf(e, key, "%v", err)
			}
			b.Name = ps.name(m, filepath.IsAbs(pat))
			if err := add(b, e, key); err != nil {
				return nil, err
			}
		}
		if found == 0 {
			return nil, ps.errorf(e, key, "%q matches no folder", pat)
		}
	}
	return out, nil
}

// hasPython reports whether dir holds a .py file.
func hasPython(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "*.py"))
	return len(m) > 0
}

// findSuite finds the suite of a bug folder: tests.json, tests.jsonl or
// the one test_*.py.
func findSuite(dir string) (string, error) {
	for _, name := range []string{"tests.json", "tests.jsonl"} {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	py, _ := filepath.Glob(filepath.Join(dir, "test_*.py"))
	switch len(py) {
	case 1:
		return py[0], nil
	case 0:
		return "", fmt.Errorf("no suite in the folder (want tests.json, tests.jsonl or a test_*.py)")
	}
	return "", fmt.Errorf("%d test_*.py files: list the bug as {tests: FILE, target: FILE}", len(py))
}

// findTarget finds the target of a bug folder whose suite names none:
// FOLDER.py, else the one .py file that is not a test or a reference.
func findTarget(dir string) (string, error) {
	p := filepath.Join(dir, filepath.Base(dir)+".py")
	if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
		return p, nil
	}
	all, _ := filepath.Glob(filepath.Join(dir, "*.py"))
	var cands []string
	for _, f := range all {
		b := filepath.Base(f)
		if strings.HasPrefix(b, "test_") || strings.HasSuffix(b, "_test.py") || b == "reference.py" || b == "conftest.py" {
			continue
		}
		cands = append(cands, f)
	}
	if len(cands) == 1 {
		return cands[0], nil
	}
	return "", fmt.Errorf("cannot tell the target among %d .py files: add \"target\" to the suite, or list the bug as {tests: FILE, target: FILE}", len(cands))
}

// loadBug loads a suite and its target (target "" means the suite's own, or
// the folder's) and checks they fit.
func (ps *parser) loadBug(tests, target string) (*Bug, error) {
	suite, err := fitness.Load(tests)
	if err != nil {
		return nil, err
	}
	if target == "" {
		target = suite.Target
	}
	if target == "" {
		if target, err = findTarget(filepath.Dir(tests)); err != nil {
			return nil, fmt.Errorf("%s: %v", ps.rel(filepath.Dir(tests)), err)
		}
	}
	src, err := userfile.Read(target, program.MaxSize)
	if err != nil {
		if inputerr.Is(err) {
			return nil, err
		}
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("target %s: %v", ps.rel(target), err)
	}
	prog, err := program.Parse(target, src)
	if err != nil {
		return nil, err
	}
	if err := suite.CheckTarget(target, prog.Scopes[0].Names); err != nil {
		return nil, err
	}
	path := filepath.Base(target)
	if r, err := filepath.Rel(filepath.Dir(tests), target); err == nil && !strings.HasPrefix(r, "..") {
		path = filepath.ToSlash(r)
	}
	return &Bug{Target: target, Tests: tests, TargetRel: ps.rel(target), TestsRel: ps.rel(tests), Path: path, Src: src, Suite: suite}, nil
}
