package localize

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"repair/internal/testutil/padded"
	"repair/program"
)

// TestDistancesMatchReference: distances, which looks at the names and
// bindings of the statements its search reaches only, gives what the
// reference (every site of the file indexed first) gives, on the
// examples' and the tests' Python files with random anchors.
func TestDistancesMatchReference(t *testing.T) {
	var files []string
	for _, pat := range []string{"../examples/*/*.py", "../examples/*/*/*.py", "../program/testdata/*.py", "../mutate/testdata/*.py"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d files", len(files))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	mid, err := os.ReadFile("../examples/middle/middle.py")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "padded")
	for _, f := range files {
		src := padded.Source(mid, 2000) // middle() beside never-called functions
		if f != "padded" {
			if src, err = os.ReadFile(f); err != nil {
				t.Fatal(err)
			}
		}
		p, err := program.Parse(filepath.Base(f), src)
		if err != nil || len(p.Stmts) == 0 {
			continue
		}
		for trial := range 5 {
			var from []int
			for range 1 + trial {
				from = append(from, rng.IntN(len(p.Stmts)))
			}
			if got, want := distances(p, from), distancesRef(p, from); !slices.Equal(got, want) {
				t.Fatalf("%s, anchors %v: %v, want %v", f, from, got, want)
			}
		}
	}
}

func distancesRef(p *program.Program, from []int) []int {
	n := len(p.Stmts)
	dist := make([]int, n)
	for i := range dist {
		dist[i] = -1
	}
	reads := make([][]string, n)
	writers := map[string][]int{} // scope/name -> statements binding it
	key := func(scope int, name string) string { return strconv.Itoa(scope) + "/" + name }
	for i := range p.Sites {
		s := &p.Sites[i]
		if s.Kind != program.SiteIdent {
			continue
		}
		name := p.SiteText(i)
		if s.Store {
			k := key(p.Stmts[s.Stmt].Scope, name)
			writers[k] = append(writers[k], s.Stmt)
		} else {
			reads[s.Stmt] = append(reads[s.Stmt], name)
		}
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
		for _, name := range reads[u] {
			// The binding may be in this scope or an enclosing one.
			for sc := p.Stmts[u].Scope; sc >= 0; sc = p.Scopes[sc].Parent {
				for _, v := range writers[key(sc, name)] {
					visit(v, d)
				}
			}
			for _, v := range returns[name] {
				visit(v, d)
			}
		}
		if par := p.Stmts[u].Parent; par >= 0 && !definition(p.Stmts[par].Kind) {
			visit(par, d)
		}
	}
	return dist
}
