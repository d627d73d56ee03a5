package localize

import (
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"
	"strings"

	"repair/fitness"
	"repair/program"
)

// Formula is a suspiciousness formula over a statement's spectrum. F and P
// are the total numbers of failing and passing cases.
type Formula struct {
	// Name is the flag value (--localization NAME).
	Name string
	// Doc says what the formula is and where it comes from.
	Doc string
	// Score returns the suspiciousness; it must be finite and >= 0 when
	// ef > 0.
	Score func(s Spectrum) float64
}

// Spectrum is what the cases did with one statement.
type Spectrum struct {
	EF int `json:"ef"` // failing cases that executed it
	EP int `json:"ep"` // passing cases that executed it
	NF int `json:"nf"` // failing cases that did not
	NP int `json:"np"` // passing cases that did not
}

// Ochiai: ef / sqrt((ef+nf)(ef+ep)). Abreu, Zoeteweij, van Gemund, "On
// the Accuracy of Spectrum-based Fault Localization" (TAIC PART 2007);
// the Debugging Book's default.
var Ochiai = Formula{
	Name: "ochiai",
	Doc:  "ef / sqrt((ef+nf)(ef+ep)) (Abreu et al. 2007; the default)",
	Score: func(s Spectrum) float64 {
		d := math.Sqrt(float64((s.EF + s.NF) * (s.EF + s.EP)))
		if d == 0 {
			return 0
		}
		return float64(s.EF) / d
	},
}

// Tarantula: (ef/F) / (ef/F + ep/P). Jones, Harrold, Stasko, "Visualization
// of Test Information to Assist Fault Localization" (ICSE 2002). With no
// passing cases the ep/P term is 0.
var Tarantula = Formula{
	Name: "tarantula",
	Doc:  "(ef/F) / (ef/F + ep/P) (Jones et al. 2002)",
	Score: func(s Spectrum) float64 {
		f, p := float64(s.EF+s.NF), float64(s.EP+s.NP)
		if s.EF == 0 || f == 0 {
			return 0
		}
		rf := float64(s.EF) / f
		rp := 0.0
		if p > 0 {
			rp = float64(s.EP) / p
		}
		return rf / (rf + rp)
	},
}

// Jaccard: ef / (ef + nf + ep). Chen et al., "Pinpoint: Problem
// Determination in Large, Dynamic Internet Services" (DSN 2002).
var Jaccard = Formula{
	Name: "jaccard",
	Doc:  "ef / (ef + nf + ep) (Chen et al. 2002)",
	Score: func(s Spectrum) float64 {
		d := s.EF + s.NF + s.EP
		if d == 0 {
			return 0
		}
		return float64(s.EF) / float64(d)
	},
}

// DStar with exponent 2: ef² / (ep + nf). Wong, Debroy, Gao, Li, "The
// DStar Method for Effective Software Fault Localization" (IEEE Trans.
// Reliability 2014). A zero denominator (every failing case and no passing
// case executed the statement) is taken as 0.5, which keeps the score
// finite and above every statement with a non-zero denominator.
var DStar = Formula{
	Name: "dstar",
	Doc:  "ef^2 / (ep + nf) (Wong et al. 2014; a zero denominator counts as 0.5)",
	Score: func(s Spectrum) float64 {
		d := float64(s.EP + s.NF)
		if d == 0 {
			d = 0.5
		}
		return float64(s.EF*s.EF) / d
	},
}

// Op2: ef - ep/(P+1). Naish, Lee, Ramamohanarao, "A Model for Spectra-based
// Software Diagnosis" (TOSEM 2011).
var Op2 = Formula{
	Name: "op2",
	Doc:  "ef - ep/(P+1) (Naish et al. 2011)",
	Score: func(s Spectrum) float64 {
		if s.EF == 0 {
			return 0
		}
		return float64(s.EF) - float64(s.EP)/float64(s.EP+s.NP+1)
	},
}

// Formulas lists every formula, the default first.
var Formulas = []Formula{Ochiai, Tarantula, Jaccard, DStar, Op2}

// ByName returns the formula with the given name.
func ByName(name string) (Formula, bool) {
	for _, f := range Formulas {
		if f.Name == name {
			return f, true
		}
	}
	return Formula{}, false
}

// Names returns the formula names, for help texts.
func Names() []string {
	var out []string
	for _, f := range Formulas {
		out = append(out, f.Name)
	}
	return out
}

// Entry is one statement's place in the ranking.
type Entry struct {
	Stmt int `json:"stmt"`
	// File is the statement's file when several are repaired together
	// (Line is then its line in that file); empty otherwise.
	File  string  `json:"file,omitempty"`
	Line  int     `json:"line"`
	Score float64 `json:"score"`
	Spectrum
	Text string `json:"text"` // the statement's first line (Texts)
}

// Ranking is the result of localization.
type Ranking struct {
	Formula string `json:"formula"`
	// Entries are every statement, most suspicious first; ties broken by
	// the distance to where the failing cases failed (see Weights), then
	// by line, then by statement id.
	Entries []Entry `json:"entries"`
	// Weights are the suspiciousness of each statement by id, 0 for those
	// no failing case executes (but see StoppedWeight): the weights of
	// mutation targets. When Uniform, every statement has weight 1.
	// Within a tie (one score), a statement farther from where the
	// failing cases failed weighs less: down to the midpoint between its
	// score and the next lower one, never below it (ties.go).
	Weights []float64 `json:"-"`
	// Uniform is true when no statement had a weight (no failing case
	// executed any statement), so targets are chosen uniformly.
	Uniform bool `json:"uniform"`
	// Failing and Passing are the numbers of failing and passing cases.
	Failing int `json:"failing"`
	Passing int `json:"passing"`
	// Crashes are the statements where a failing case raised the
	// exception that failed it (the last line of the file its traceback
	// went through), in the order of the cases, without duplicates.
	Crashes []int `json:"-"`
	// Unbound are the local names a failing case read before any
	// assignment (its UnboundLocalError), each with the statement where
	// it crashed, once per name and statement, in the order of the cases.
	Unbound []Unbound `json:"-"`
	// Data are the module-level assignments that weigh as the most
	// suspicious statement reading a name they bind (a table of rules or
	// escapes the failing case's code reads), in statement order: their
	// weight comes from that reader, not from their spectrum.
	Data []int `json:"-"`
}

// Unbound is a local name read before assignment at statement Stmt.
type Unbound struct {
	Stmt int
	Name string
}

// StoppedWeight is the share of the least score of its scope that a
// statement only passing cases executed gets when a failing case stopped
// early (an exception, a timeout, a test function's failed assert after
// others passed): such a case never reached what follows where it stopped,
// so a second fault there shows only once the first is fixed (a test of
// eight asserts failing at the third hides a fault the seventh would
// find). GenProg weighs statements that passing cases execute too at 0.1
// of those only failing ones do (Weimer et al., ICSE 2009).
const StoppedWeight = 0.1

// stoppedFloor gives the statements that only passing cases executed, in
// a function where a failing case executed some statement, StoppedWeight
// of the least positive score of that function (before ties are broken).
func stoppedFloor(p *program.Program, spec []Spectrum, w []float64) {
	least := map[int]float64{} // function scope -> least positive weight
	for i, st := range p.Stmts {
		if p.Scopes[st.Scope].Kind != "function" {
			continue
		}
		if w[i] > 0 && (least[st.Scope] == 0 || w[i] < least[st.Scope]) {
			least[st.Scope] = w[i]
		}
	}
	for i, st := range p.Stmts {
		if w[i] == 0 && spec[i].EF == 0 && spec[i].EP > 0 && least[st.Scope] > 0 && !st.Docstring {
			w[i] = StoppedWeight * least[st.Scope]
		}
	}
}

// UncalledWeight is the share of its score a definition (def, class)
// keeps when no failing case executed a statement of a function body it
// holds. Every case executes a module's definitions when it imports it,
// so each scores alike, and on a package module their hundreds drew most
// edits (deleting a function, a default changed) away from the few
// statements the failing case ran, each such edit running every test.
// A function no failing case called can change its outcome only through
// what its definition does at import. The share is GenProg's for a
// statement passing cases execute too (StoppedWeight).
const UncalledWeight = 0.1

// uncalledDefinitions weighs each definition none of whose functions'
// bodies a failing case executed (spec) at UncalledWeight of its weight.
func uncalledDefinitions(p *program.Program, spec []Spectrum, w []float64) {
	called := make([]bool, len(p.Stmts))
	for j, st := range p.Stmts {
		if spec[j].EF == 0 || p.Scopes[st.Scope].Kind != "function" {
			continue
		}
		for s := st.Parent; s >= 0 && !called[s]; s = p.Stmts[s].Parent {
			called[s] = true
		}
	}
	for i, st := range p.Stmts {
		switch st.Kind {
		case "function_definition", "class_definition", "decorated_definition":
			if !called[i] {
				w[i] *= UncalledWeight
			}
		}
	}
}

// moduleData weighs a module-level assignment at least as the most
// suspicious statement that reads a name it binds, in a function a
// failing case ran: every case executes the module's statements at
// import, so their spectrum cannot tell a table of rules or escapes the
// failing case's code reads from the hundred it does not. A definition's
// uses carry its suspiciousness, as def-use coverage does (Santelices et
// al., "Lightweight Fault-Localization Using Multiple Coverage Types",
// ICSE 2009). It returns the assignments whose weight it raised, in
// statement order.
func moduleData(p *program.Program, spec []Spectrum, w []float64) []int {
	var binders map[string][]int
	for i := range p.Sites {
		s := &p.Sites[i]
		if s.Kind != program.SiteIdent || !s.Store {
			continue
		}
		st := &p.Stmts[s.Stmt]
		if st.Parent >= 0 || st.Kind != "expression_statement" {
			continue
		}
		if binders == nil {
			binders = map[string][]int{}
		}
		name := p.SiteText(i)
		binders[name] = append(binders[name], s.Stmt)
	}
	if binders == nil {
		return nil
	}
	// A def's header reads a name for its body (a parameter's default):
	// it weighs as the body's most suspicious statement a failing case
	// ran.
	body := map[int]float64{}
	for j, st := range p.Stmts {
		if spec[j].EF == 0 || p.Scopes[st.Scope].Kind != "function" {
			continue
		}
		for s := st.Parent; s >= 0; s = p.Stmts[s].Parent {
			body[s] = max(body[s], w[j])
		}
	}
	best := map[string]float64{}
	for i := range p.Sites {
		s := &p.Sites[i]
		if s.Kind != program.SiteIdent || s.Store {
			continue
		}
		name := p.SiteText(i)
		if _, ok := binders[name]; !ok {
			continue
		}
		if st := &p.Stmts[s.Stmt]; spec[s.Stmt].EF > 0 && p.Scopes[st.Scope].Kind == "function" {
			best[name] = max(best[name], w[s.Stmt])
		}
	}
	// The headers have no sites: their names are read off the text, up
	// to the body.
	for i, x := range body {
		st := &p.Stmts[i]
		if x <= 0 || st.Kind != "function_definition" && st.Kind != "decorated_definition" || len(st.Blocks) == 0 {
			continue
		}
		end := p.Stmts[p.Blocks[st.Blocks[0]].Stmts[0]].Start
		for _, name := range namesIn(p.Src[st.Start:max(end, st.Start)]) {
			if _, ok := binders[name]; ok {
				best[name] = max(best[name], x)
			}
		}
	}
	var raised []int
	for name, x := range best {
		for _, i := range binders[name] {
			if !exports(p, i) && x > w[i] {
				w[i] = x
				raised = append(raised, i)
			}
		}
	}
	slices.Sort(raised)
	return slices.Compact(raised)
}

// namesIn are the identifiers of Python source text b (and the words of
// its strings and comments: a header seldom has any).
func namesIn(b []byte) []string {
	var out []string
	for i := 0; i < len(b); {
		c := b[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') || i > 0 && (b[i-1] == '.' || b[i-1] >= '0' && b[i-1] <= '9') {
			i++
			continue
		}
		j := i
		for j < len(b) && (b[j] == '_' || b[j] >= 'a' && b[j] <= 'z' || b[j] >= 'A' && b[j] <= 'Z' || b[j] >= '0' && b[j] <= '9') {
			j++
		}
		out = append(out, string(b[i:j]))
		i = j
	}
	return out
}

// exports reports whether statement i binds the module's __all__ (its
// names for `from m import *`): every case executes it at import, and a
// package module's list of hundreds of names drew a string edit there
// (each running every test) more often than one of the failing case's
// own statements, where no such edit fixes anything.
func exports(p *program.Program, i int) bool {
	st := &p.Stmts[i]
	if st.Parent >= 0 || st.Kind != "expression_statement" {
		return false
	}
	rest, ok := strings.CutPrefix(p.FirstLine(i), "__all__")
	if !ok {
		return false
	}
	rest = strings.TrimLeft(rest, " \t")
	return strings.HasPrefix(rest, "+=") || strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==")
}

// Executed returns, per statement id, whether the case whose covered lines
// are given executed it.
func Executed(p *program.Program, lines []int) []bool {
	return newExecutions(p).of(lines)
}

// ExecutedAny returns, per statement id, whether any case of outcome o
// executed it: Executed of all their lines together, computed once per
// distinct set of lines.
func ExecutedAny(p *program.Program, o *fitness.Outcome) []bool {
	execs := newExecutions(p)
	out := make([]bool, len(p.Stmts))
	seen := map[*bool]bool{}
	for _, r := range o.Results {
		ex := execs.of(r.Lines)
		if seen[first(ex)] {
			continue
		}
		seen[first(ex)] = true
		for i, e := range ex {
			out[i] = out[i] || e
		}
	}
	return out
}

// executions computes Executed for the cases of one outcome, once per
// distinct set of covered lines: a suite's cases take few paths through a
// program, and a large file makes each computation cost its statements.
// The slices it returns are shared: callers must not change them.
type executions struct {
	p           *program.Program
	first, last []int // headerLines of each statement
	top         int   // the last line of a statement
	seed        maphash.Seed
	seen        map[uint64][]executed
	cov         []bool     // scratch: the lines covered
	key         []byte     // scratch: the lines hashed
	same        []executed // the last slices of lines, found by identity
}

type executed struct {
	lines []int
	ex    []bool
}

func newExecutions(p *program.Program) *executions {
	e := &executions{p: p, first: make([]int, len(p.Stmts)), last: make([]int, len(p.Stmts)),
		seed: maphash.MakeSeed(), seen: map[uint64][]executed{}}
	for i := range p.Stmts {
		e.first[i], e.last[i] = headerLines(p, i)
		e.top = max(e.top, e.last[i])
	}
	return e
}

func (e *executions) of(lines []int) []bool {
	// Cases with the same lines often share one slice (the cpython
	// engine's outcomes): found without hashing it.
	if len(lines) > 0 {
		for _, x := range e.same {
			if len(x.lines) == len(lines) && &x.lines[0] == &lines[0] {
				return x.ex
			}
		}
	}
	e.key = e.key[:0]
	for _, l := range lines {
		e.key = binary.LittleEndian.AppendUint64(e.key, uint64(l))
	}
	k := maphash.Bytes(e.seed, e.key)
	for _, x := range e.seen[k] {
		if slices.Equal(x.lines, lines) {
			e.remember(lines, x.ex)
			return x.ex
		}
	}
	top := e.top
	if e.cov == nil {
		e.cov = make([]bool, top+1)
	}
	cov := e.cov
	for _, l := range lines {
		if l >= 0 && l <= top {
			cov[l] = true
		}
	}
	p := e.p
	ex := make([]bool, len(p.Stmts))
	// Children come after their parents in document order: go backwards so
	// a compound statement sees whether any of its children ran.
	for i := len(p.Stmts) - 1; i >= 0; i-- {
		for l := max(e.first[i], 0); l <= e.last[i] && !ex[i]; l++ {
			ex[i] = cov[l]
		}
		if ex[i] && p.Stmts[i].Parent >= 0 {
			ex[p.Stmts[i].Parent] = true
		}
	}
	for _, l := range lines {
		if l >= 0 && l <= top {
			cov[l] = false
		}
	}
	e.seen[k] = append(e.seen[k], executed{lines, ex})
	e.remember(lines, ex)
	return ex
}

// remember makes of find lines' slice by identity, for the last
// sameSlices slices (of compares them all).
func (e *executions) remember(lines []int, ex []bool) {
	if len(lines) == 0 {
		return
	}
	if len(e.same) == sameSlices {
		e.same = append(e.same[:0], e.same[1:]...)
	}
	e.same = append(e.same, executed{lines, ex})
}

// sameSlices bounds the slices executions finds by identity.
const sameSlices = 8

// first identifies a result of executions.of, which returns one slice for
// each distinct set of lines: its first element (nil when empty).
func first(ex []bool) *bool {
	if len(ex) == 0 {
		return nil
	}
	return &ex[0]
}

// headerLines returns the lines of a statement's own text: all of a simple
// statement, the header of a compound one (up to its first block).
func headerLines(p *program.Program, id int) (int, int) {
	s := &p.Stmts[id]
	if !s.Compound || len(s.Blocks) == 0 {
		return s.Line, s.EndLine
	}
	first := p.Stmts[p.Blocks[s.Blocks[0]].Stmts[0]].Line
	if first <= s.Line {
		return s.Line, s.Line
	}
	return s.Line, first - 1
}

// Rank computes the spectrum of every statement from an outcome of the
// original program run with coverage (Result.Lines), and ranks them with
// formula f.
func Rank(p *program.Program, o *fitness.Outcome, f Formula) Ranking {
	n := len(p.Stmts)
	spec := make([]Spectrum, n)
	var failing, passing int
	stopped := false
	execs := newExecutions(p)
	// The cases that took one path (executions.of returns one slice for
	// each distinct set of lines) count together.
	type path struct {
		ex         []bool
		fail, pass int
	}
	var paths []path
	pathOf := map[*bool]int{}
	for _, r := range o.Results {
		fail := r.Verdict != fitness.Passed
		if fail {
			failing++
		} else {
			passing++
		}
		switch r.Verdict {
		case fitness.RuntimeError, fitness.TimeLimitExceeded, fitness.MemoryLimitExceeded:
			stopped = true
		case fitness.WrongAnswer:
			stopped = stopped || r.Progress > 0
		}
		ex := execs.of(r.Lines)
		k, ok := pathOf[first(ex)]
		if !ok {
			k = len(paths)
			pathOf[first(ex)] = k
			paths = append(paths, path{ex: ex})
		}
		if fail {
			paths[k].fail++
		} else {
			paths[k].pass++
		}
	}
	for _, x := range paths {
		for i, e := range x.ex {
			if e {
				spec[i].EF += x.fail
				spec[i].EP += x.pass
			} else {
				spec[i].NF += x.fail
				spec[i].NP += x.pass
			}
		}
	}
	rk := Ranking{Formula: f.Name, Weights: make([]float64, n), Failing: failing, Passing: passing}
	if n > 0 {
		rk.Entries = make([]Entry, 0, n) // one per statement
	}
	any := false
	for i := range p.Stmts {
		score := 0.0
		if spec[i].EF > 0 {
			score = f.Score(spec[i])
			if math.IsNaN(score) || math.IsInf(score, 0) || score < 0 {
				score = 0
			}
		}
		rk.Weights[i] = score
		if score > 0 {
			any = true
		}
		rk.Entries = append(rk.Entries, Entry{Stmt: i, Line: p.Stmts[i].Line, Score: score, Spectrum: spec[i]})
	}
	if !any {
		rk.Uniform = true
		for i := range rk.Weights {
			rk.Weights[i] = 1
		}
	} else {
		if stopped {
			stoppedFloor(p, spec, rk.Weights)
		}
		uncalledDefinitions(p, spec, rk.Weights)
		for i := range p.Stmts {
			if exports(p, i) {
				rk.Weights[i] = 0
			}
		}
	}
	breakTies(p, o, &rk, execs)
	if !rk.Uniform {
		// After the ties are broken: a table weighs as its reader does.
		rk.Data = moduleData(p, spec, rk.Weights)
	}
	rk.Crashes = crashes(p, o)
	rk.Unbound = unbound(p, o)
	rk.Entries = sortEntries(rk.Entries, rk.Weights)
	return rk
}

// Texts sets the Text of each entry (of p's ranking) that has none: Rank
// leaves them to the listings and reports that show them, a string for
// each of the file's statements (30,000 at 5,000 lines) that a repair
// itself never reads.
func Texts(p *program.Program, entries []Entry) {
	for i := range entries {
		if e := &entries[i]; e.Text == "" && e.Stmt >= 0 && e.Stmt < len(p.Stmts) {
			e.Text = p.FirstLine(e.Stmt)
		}
	}
}

// sortEntries returns entries ordered by score, then weight, both descending,
// then line and statement. Statement ids are distinct: the order is
// total, so any sort gives it, and no stable sort is needed. The entries
// are large (their texts, their spectra): their keys are sorted, with
// where each entry is, and the entries copied once in their order.
func sortEntries(entries []Entry, weights []float64) []Entry {
	type key struct {
		score, w         float64
		line, stmt, from int
	}
	if len(entries) < 2 {
		return entries
	}
	// Entries of score and weight 0 come last (no score or weight is
	// negative) in the order of their lines and statements, which is
	// often already theirs (Rank makes the entries in statement order):
	// then only the others are sorted, in a large file a few.
	keys := make([]key, 0, len(entries))
	var zero []int
	sortAll := false
	for i := range entries {
		e := &entries[i]
		w := weights[e.Stmt]
		switch {
		case e.Score == 0 && w == 0:
			if n := len(zero); n > 0 {
				z := &entries[zero[n-1]]
				sortAll = sortAll || cmp.Or(cmp.Compare(z.Line, e.Line), cmp.Compare(z.Stmt, e.Stmt)) > 0
			}
			zero = append(zero, i)
		case !(e.Score >= 0 && w >= 0): // negative or NaN
			sortAll = true
			fallthrough
		default:
			keys = append(keys, key{e.Score, w, e.Line, e.Stmt, i})
		}
	}
	if sortAll {
		for _, i := range zero {
			e := &entries[i]
			keys = append(keys, key{e.Score, weights[e.Stmt], e.Line, e.Stmt, i})
		}
		zero = nil
	}
	slices.SortFunc(keys, func(a, b key) int {
		if a.score != b.score {
			return -cmp.Compare(a.score, b.score)
		}
		if a.w != b.w {
			return -cmp.Compare(a.w, b.w)
		}
		if a.line != b.line {
			return cmp.Compare(a.line, b.line)
		}
		return cmp.Compare(a.stmt, b.stmt)
	})
	sorted := make([]Entry, 0, len(entries))
	for _, k := range keys {
		sorted = append(sorted, entries[k.from])
	}
	for _, i := range zero {
		sorted = append(sorted, entries[i])
	}
	return sorted
}
