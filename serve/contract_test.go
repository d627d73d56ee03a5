package serve

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the response sections of testdata/contract/*.txtar")

// TestContract replays testdata/contract/*.txtar: each holds a request
// ("METHOD PATH" and the body) and the golden response (the status and
// the JSON body, indented). The server runs on fake engines, so every
// verdict and every error is deterministic. Run with -update to rewrite
// the responses, and read the diff.
func TestContract(t *testing.T) {
	files, err := filepath.Glob("testdata/contract/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no contract files: %v", err)
	}
	s, _ := newFakeServer(t, Options{Workers: 2, Queue: 8, MaxTime: 10, MaxMemoryMB: 1024, Version: "test"})
	h := s.Handler()
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var reqText []byte
			respAt := -1
			for i, f := range ar.Files {
				switch f.Name {
				case "request":
					reqText = f.Data
				case "response":
					respAt = i
				}
			}
			line, body, _ := bytes.Cut(reqText, []byte("\n"))
			method, path, ok := strings.Cut(string(line), " ")
			if !ok {
				t.Fatalf("request section must start with METHOD PATH, got %q", line)
			}
			req := httptest.NewRequest(method, path, bytes.NewReader(body))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			got := formatResponse(t, rec)
			if *update {
				if respAt < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "response"})
					respAt = len(ar.Files) - 1
				}
				ar.Files[respAt].Data = got
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if respAt < 0 {
				t.Fatalf("no response section (run with -update)")
			}
			if diff := cmp.Diff(string(ar.Files[respAt].Data), string(got)); diff != "" {
				t.Errorf("response mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// formatResponse is the status, the Retry-After and Allow headers when
// set, and the body indented; it checks that the body is JSON.
func formatResponse(t *testing.T, rec *httptest.ResponseRecorder) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(strconv.Itoa(rec.Code) + "\n")
	for _, h := range []string{"Allow", "Retry-After", "WWW-Authenticate"} {
		if v := rec.Header().Get(h); v != "" {
			fmt.Fprintf(&b, "%s: %s\n", h, v)
		}
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, rec.Body.Bytes(), "", "  "); err != nil {
		t.Fatalf("the body is not JSON: %v: %q", err, rec.Body.Bytes())
	}
	b.Write(bytes.TrimSpace(out.Bytes()))
	b.WriteString("\n")
	if rec.Code >= 400 {
		var e struct{ Error string }
		if json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Error == "" {
			t.Errorf("a %d answer without an \"error\" message", rec.Code)
		}
	}
	if rec.Code != http.StatusOK && rec.Code < 400 {
		t.Errorf("status %d", rec.Code)
	}
	return b.Bytes()
}
