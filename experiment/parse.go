// Parsing a plan: its YAML nodes checked key by key, errors at their
// line; seeds, budget and the parameter combinations.

package experiment

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"repair/internal/inputerr"
	"repair/sandbox/engines"
)

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
			if !slices.Contains(engines.Names, s) {
				return nil, ps.errorf(n, k, "must be one of %s, got %q", strings.Join(engines.Names, ", "), s)
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
	for _, k := range []string{"guard", "check"} {
		n, ok := fields[k]
		if !ok {
			continue
		}
		on, err := ps.boolean(n, k)
		if err != nil {
			return nil, err
		}
		if k == "guard" {
			plan.NoGuard = !on
		} else {
			plan.NoCheck = !on
		}
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

// planKeys are the top-level keys of a plan.
var planKeys = []string{"bugs", "seeds", "budget", "parameters", "output", "engine", "sandbox", "python", "workers", "guard", "check"}

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

func (ps *parser) boolean(n *yaml.Node, key string) (bool, error) {
	s, err := ps.scalar(n, key)
	if err != nil {
		return false, err
	}
	v, err := strconv.ParseBool(s)
	if err != nil {
		return false, ps.errorf(n, key, "want true or false, got %q", s)
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
