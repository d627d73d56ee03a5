package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"repair/fitness"
)

// TestGenerated: protocol.py, protocol.go and the tables of
// docs/engines.md are what the table writes (regenerated into a temporary
// directory and compared).
func TestGenerated(t *testing.T) {
	root := filepath.Join("..", "..")
	out := t.TempDir()
	if err := run(root, out); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{pyFile, goFile, docFile} {
		want, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what internal/protogen writes: run go generate ./sandbox/cpython", name)
		}
	}
}

// TestFitnessValues: the rows whose Go column names package fitness's
// constant have its value (the verdicts, the statuses of an observation,
// the bounds of a value, the case kinds and their names in the suite).
func TestFitnessValues(t *testing.T) {
	values := map[string]int64{
		"fitness.Passed":              int64(fitness.Passed),
		"fitness.WrongAnswer":         int64(fitness.WrongAnswer),
		"fitness.TimeLimitExceeded":   int64(fitness.TimeLimitExceeded),
		"fitness.RuntimeError":        int64(fitness.RuntimeError),
		"fitness.CompilationError":    int64(fitness.CompilationError),
		"fitness.MemoryLimitExceeded": int64(fitness.MemoryLimitExceeded),
		"fitness.StatusReturned":      int64(fitness.StatusReturned),
		"fitness.StatusRaised":        int64(fitness.StatusRaised),
		"fitness.StatusFinished":      int64(fitness.StatusFinished),
		"fitness.Call":                int64(fitness.Call),
		"fitness.IO":                  int64(fitness.IO),
		"fitness.Test":                int64(fitness.Test),
		"fitness.MaxDepth":            fitness.MaxDepth,
		"fitness.MaxMaterialise":      fitness.MaxMaterialise,
	}
	kinds := fmt.Sprintf(`{"%s": CALL, "%s": IO, "%s": TEST}`, fitness.Call, fitness.IO, fitness.Test)
	var used []string
	for _, s := range sections {
		for _, r := range s.Rows {
			if !strings.HasPrefix(r.Go, "fitness.") {
				continue
			}
			used = append(used, r.Go)
			if r.Go == "fitness.Kind" {
				if r.Value != kinds {
					t.Errorf("%s = %s; fitness's kinds by name are %s", r.Name, r.Value, kinds)
				}
				continue
			}
			want, ok := values[r.Go]
			if !ok {
				t.Errorf("%s: %s is not one of the values this test knows", r.Name, r.Go)
				continue
			}
			if r.Value != fmt.Sprint(want) {
				t.Errorf("%s = %s; %s is %d", r.Name, r.Value, r.Go, want)
			}
		}
	}
	for name := range values {
		if !slices.Contains(used, name) {
			t.Errorf("no row for %s", name)
		}
	}
}

func TestLayoutSize(t *testing.T) {
	rows := []struct {
		format string
		want   int // -1: an error
	}{
		{"<IBBd", 14},
		{"<qdQQ", 32},
		{"<cq", 9},
		{"<HH", 4},
		{"<QQQQQQQQQQQQ", 96},
		{"IBBd", -1}, // native sizes and alignment: not the wire's
		{"<", -1},
		{"<IZ", -1},
	}
	for _, r := range rows {
		got, err := layoutSize(r.format)
		if r.want < 0 {
			if err == nil {
				t.Errorf("layoutSize(%q) = %d, want an error", r.format, got)
			}
			continue
		}
		if err != nil || got != r.want {
			t.Errorf("layoutSize(%q) = %d, %v; want %d", r.format, got, err, r.want)
		}
	}
}

// TestCheck: a table the files could not say, or whose shared memory
// overlaps, is refused with a message naming the row.
func TestCheck(t *testing.T) {
	// with is the table with the row name changed by f (or appended).
	with := func(name string, f func(*Row)) []Section {
		secs := make([]Section, len(sections))
		found := false
		for i, s := range sections {
			secs[i] = Section{Intro: s.Intro, Rows: slices.Clone(s.Rows)}
			for j := range secs[i].Rows {
				if secs[i].Rows[j].Name == name {
					f(&secs[i].Rows[j])
					found = true
				}
			}
		}
		if !found {
			r := Row{Name: name}
			f(&r)
			secs[0].Rows = append(secs[0].Rows, r)
		}
		return secs
	}
	rows := []struct {
		name string
		secs []Section
		want string // a substring of the error; "" for none
	}{
		{"the table", sections, ""},
		{"a name twice", with("MSG_TWICE", func(r *Row) { *r = sections[0].Rows[0] }), "twice"},
		{"a lower-case name", with("MSG_HELLO", func(r *Row) { r.Name = "msg_hello" }), "not an upper-case Python name"},
		{"a Go name twice", with("MSG_CODE", func(r *Row) { r.Go = "msgModules" }), "Go name msgModules twice"},
		{"a bad layout", with("REC", func(r *Row) { r.Value = "<IBBz" }), "REC: layout"},
		{"a quote as a message kind", with("MSG_RUN", func(r *Row) { r.Value = `"` }), "MSG_RUN: bytes"},
		{"two bytes", with("MSG_RUN", func(r *Row) { r.Value = "RR" }), "MSG_RUN: bytes"},
		{"a Go constant Go cannot read", with("RUN_WALL", func(r *Row) { r.Value = "2 ** 7" }), "RUN_WALL"},
		{"HDR past JOB_OFF", with("JOB_OFF", func(r *Row) { r.Value = "16" }), "HDR (32 bytes) overlaps JOB at 16"},
		{"JOB past CODE_OFF", with("CODE_OFF", func(r *Row) { r.Value = "64" }), "overlaps the code at 64"},
		{"CUR not the start of HDR", with("CUR", func(r *Row) { r.Value = "<dq" }), "CUR <dq is not the start of HDR"},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			err := check(r.secs)
			switch {
			case r.want == "" && err != nil:
				t.Errorf("check: %v", err)
			case r.want != "" && (err == nil || !strings.Contains(err.Error(), r.want)):
				t.Errorf("check: %v; want an error with %q", err, r.want)
			}
		})
	}
}

// TestSpliceDocs: the tables replace what is between the markers, the rest
// stays; a document without them is refused.
func TestSpliceDocs(t *testing.T) {
	doc := "# Title\n\nBefore.\n\n" + docBegin + "\nold table\n" + docEnd + "\n\nAfter.\n"
	got, err := spliceDocs([]byte(doc), sections)
	if err != nil {
		t.Fatal(err)
	}
	s := string(got)
	if strings.Contains(s, "old table") || !strings.HasPrefix(s, "# Title\n\nBefore.\n\n"+docBegin+"\n") || !strings.HasSuffix(s, docEnd+"\n\nAfter.\n") {
		t.Errorf("spliced:\n%s", s)
	}
	if !strings.Contains(s, "| `MSG_HELLO` | `b\"H\"` | `msgHello` |") {
		t.Errorf("no row of MSG_HELLO in:\n%s", s)
	}
	if _, err := spliceDocs([]byte("# Title\n"), sections); err == nil {
		t.Error("a document without markers: no error")
	}
}
