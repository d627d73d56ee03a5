// Ties: statements of one score ordered by how far they are from where
// the failing cases went wrong.

package localize

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"repair/fitness"
	"repair/program"
)

// tieShare bounds how far a tie-break lowers a weight: a statement of a
// tie keeps more than tieShare of the way from the next lower score to
// its own (so statements of different scores never change order).
const tieShare = 0.5

// detailLine reads the candidate's line of a runtime error's detail
// ("ValueError: bad (line 7)"); a line of a test file ("(test_x.py line
// 7)") is not the candidate's.
var detailLine = regexp.MustCompile(`\(line (\d+)\)$`)

// anchors returns the statements where the failing cases showed their
// failure: the statement of the candidate's line a raised exception went
// through last, or else the returns the case executed (the wrong value
// left there), or else its print calls (the wrong output).
func anchors(p *program.Program, o *fitness.Outcome, execs *executions) []int {
	var out []int
	seen := map[int]bool{}
	ends := map[*bool][]int{}
	add := func(s int) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, r := range o.Results {
		if r.Verdict == fitness.Passed {
			continue
		}
		if s := crashAt(p, r); s >= 0 {
			add(s)
			continue
		}
		ex := execs.of(r.Lines)
		if len(ex) == 0 {
			continue
		}
		rets, ok := ends[&ex[0]] // cases of one path end alike
		if !ok {
			var prints []int
			for i, e := range ex {
				if !e {
					continue
				}
				switch k := p.Stmts[i].Kind; {
				case k == "return_statement":
					rets = append(rets, i)
				case k == "expression_statement":
					if t := p.StmtText(i); strings.Contains(t, "print(") || strings.Contains(t, "write(") {
						prints = append(prints, i)
					}
				}
			}
			if len(rets) == 0 {
				rets = prints
			}
			ends[&ex[0]] = rets
		}
		for _, s := range rets {
			add(s)
		}
	}
	return out
}

// crashAt is the statement of the candidate's line where failing result
// r's exception was raised (its detail's line), or -1.
func crashAt(p *program.Program, r fitness.Result) int {
	if m := detailLine.FindStringSubmatch(r.Detail); m != nil {
		if l, err := strconv.Atoi(m[1]); err == nil {
			return stmtAtLine(p, l)
		}
	}
	return -1
}

// crashes are the statements where the failing cases of o crashed
// (crashAt), each once, in the order of the cases.
func crashes(p *program.Program, o *fitness.Outcome) []int {
	var out []int
	for _, r := range o.Results {
		if r.Verdict == fitness.Passed {
			continue
		}
		if s := crashAt(p, r); s >= 0 && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// unboundName reads the name of an UnboundLocalError's detail: "cannot
// access local variable 'x' where it is not associated with a value"
// (Python 3.11 on), "local variable 'x' referenced before assignment"
// (before).
var unboundName = regexp.MustCompile(`^UnboundLocalError: (?:cannot access )?local variable '([A-Za-z_][A-Za-z0-9_]*)'`)

// unbound are the names the failing cases of o read before assignment,
// with the statements where they crashed (crashAt), each pair once.
func unbound(p *program.Program, o *fitness.Outcome) []Unbound {
	var out []Unbound
	for _, r := range o.Results {
		if r.Verdict == fitness.Passed {
			continue
		}
		m := unboundName.FindStringSubmatch(r.Detail)
		if m == nil {
			continue
		}
		if u := (Unbound{crashAt(p, r), m[1]}); u.Stmt >= 0 && !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

// stmtAtLine returns the innermost statement whose own text (a compound
// statement's header) holds line l, or -1.
func stmtAtLine(p *program.Program, l int) int {
	best := -1
	for i := range p.Stmts {
		first, last := headerLines(p, i)
		if first <= l && l <= last {
			best = i // later statements are nested deeper
		}
	}
	return best
}

// distances returns, per statement, the length of the shortest chain of
// dependences from it to an anchor (-1 when there is none): a statement
// that binds a name an anchor reads is 1 away, one that binds a name that
// one reads is 2, and so on; the compound statement a statement stands
// in (its condition or loop, not a def) is one step further than it; the returns of
// a function of the file a statement calls are one step further too.
func distances(p *program.Program, from []int) []int {
	n := len(p.Stmts)
	dist := make([]int, n)
	for i := range dist {
		dist[i] = -1
	}
	// The identifier sites of each statement and the statements of each
	// scope, in order; names and the bindings of a scope are looked at
	// only for the statements the search reaches (in a large file, a few
	// of tens of thousands of sites).
	siteAt := make([]int32, n+1) // the sites of statement i: idents[siteAt[i]:siteAt[i+1]]
	for i := range p.Sites {
		if s := &p.Sites[i]; s.Kind == program.SiteIdent {
			siteAt[s.Stmt+1]++
		}
	}
	for i := 1; i <= n; i++ {
		siteAt[i] += siteAt[i-1]
	}
	idents := make([]int32, siteAt[n])
	fill := slices.Clone(siteAt[:n])
	for i := range p.Sites {
		if s := &p.Sites[i]; s.Kind == program.SiteIdent {
			idents[fill[s.Stmt]] = int32(i)
			fill[s.Stmt]++
		}
	}
	inScope := make([][]int32, len(p.Scopes))
	for i := range p.Stmts {
		if sc := p.Stmts[i].Scope; sc >= 0 && sc < len(inScope) {
			inScope[sc] = append(inScope[sc], int32(i))
		}
	}
	names := map[string]string{} // one string per name
	name := func(site int32) string {
		s := &p.Sites[site]
		b := p.Src[s.Start:s.End]
		nm, ok := names[string(b)]
		if !ok {
			nm = string(b)
			names[nm] = nm
		}
		return nm
	}
	// writers(sc)[name] are the statements binding name in scope sc, in
	// the order of their sites.
	bindings := map[int]map[string][]int{}
	writers := func(sc int) map[string][]int {
		w, ok := bindings[sc]
		if !ok {
			w = map[string][]int{}
			if sc < len(inScope) {
				for _, st := range inScope[sc] {
					for _, site := range idents[siteAt[st]:siteAt[st+1]] {
						if p.Sites[site].Store {
							nm := name(site)
							w[nm] = append(w[nm], int(st))
						}
					}
				}
			}
			bindings[sc] = w
		}
		return w
	}
	// The returns of each function of the file, by name.
	returns := map[string][]int{}
	for i := range p.Stmts {
		if p.Stmts[i].Kind != "return_statement" {
			continue
		}
		sc := &p.Scopes[p.Stmts[i].Scope]
		if sc.Kind == "function" {
			name := sc.Name
			if j := strings.LastIndexByte(name, '.'); j >= 0 {
				name = name[j+1:]
			}
			returns[name] = append(returns[name], i)
		}
	}
	var queue []int
	for _, s := range from {
		if dist[s] < 0 {
			dist[s] = 0
			queue = append(queue, s)
		}
	}
	visit := func(v, d int) {
		if dist[v] < 0 {
			dist[v] = d
			queue = append(queue, v)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		d := dist[u] + 1
		for _, site := range idents[siteAt[u]:siteAt[u+1]] {
			if p.Sites[site].Store {
				continue
			}
			nm := name(site)
			// The binding may be in this scope or an enclosing one.
			for sc := p.Stmts[u].Scope; sc >= 0; sc = p.Scopes[sc].Parent {
				for _, v := range writers(sc)[nm] {
					visit(v, d)
				}
			}
			for _, v := range returns[nm] {
				visit(v, d)
			}
		}
		if par := p.Stmts[u].Parent; par >= 0 && !definition(p.Stmts[par].Kind) {
			visit(par, d)
		}
	}
	return dist
}

// definition reports whether a statement kind defines a function or a
// class: it holds its body, but decides nothing of what the body does.
func definition(kind string) bool {
	return kind == "function_definition" || kind == "class_definition" || kind == "decorated_definition"
}

// breakTies lowers, within each group of statements of one positive
// score, the weights of the statements farther (distances) from where the
// failing cases went wrong (anchors), and orders the entries of the group
// so: nearest first. A weight stays above the midpoint between its score
// and the next lower one, so the order of different scores never
// changes. Nothing changes when no failing case tells where it failed.
func breakTies(p *program.Program, o *fitness.Outcome, rk *Ranking, execs *executions) {
	from := anchors(p, o, execs)
	if len(from) == 0 || rk.Uniform {
		return
	}
	dist := distances(p, from)
	far := 0
	for _, d := range dist {
		far = max(far, d+1)
	}
	level := func(s int) int {
		if dist[s] < 0 {
			return far
		}
		return dist[s]
	}
	groups := map[float64][]int{}
	var scores []float64
	for _, e := range rk.Entries {
		if e.Score <= 0 {
			continue
		}
		if groups[e.Score] == nil {
			scores = append(scores, e.Score)
		}
		groups[e.Score] = append(groups[e.Score], e.Stmt)
	}
	sort.Float64s(scores)
	for k, s := range scores {
		g := groups[s]
		levels := map[int]bool{}
		for _, st := range g {
			levels[level(st)] = true
		}
		if len(levels) < 2 {
			continue
		}
		var ls []int
		for l := range levels {
			ls = append(ls, l)
		}
		sort.Ints(ls)
		lower := 0.0
		if k > 0 {
			lower = scores[k-1]
		}
		floor := lower + (s-lower)*tieShare
		for _, st := range g {
			j := sort.SearchInts(ls, level(st))
			rk.Weights[st] = s - (s-floor)*float64(j)/float64(len(ls))
		}
	}
}
