// Package donors picks the donor programs whose code joins a repair's
// ingredients: Python files (a class's correct submissions, a reference
// solution), the closest to the target first.
package donors

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"repair/internal/inputerr"
	"repair/internal/userfile"
	"repair/program"
)

// Donor is one donor program.
type Donor struct {
	Path string
	Src  []byte
	// Similarity to the target, from 0 to 1 (see Similarity).
	Similarity float64
}

// Collect expands paths (files, or directories: their .py files but
// tests and conftest.py) into donor files, leaving out those in skip
// (absolute paths).
func Collect(paths []string, skip map[string]bool) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		abs, err := filepath.Abs(p)
		if err != nil || seen[abs] || skip[abs] {
			return
		}
		seen[abs] = true
		out = append(out, p)
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			if pe, ok := err.(*os.PathError); ok {
				err = pe.Err
			}
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		if !fi.IsDir() {
			if !fi.Mode().IsRegular() {
				// A FIFO would block the read, a device never end it.
				return nil, inputerr.New("%s: not a regular file (%s)", p, kind(fi.Mode()))
			}
			add(p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			n := e.Name()
			if !e.IsDir() && strings.HasSuffix(n, ".py") && !strings.HasPrefix(n, "test_") && n != "conftest.py" {
				add(filepath.Join(p, n))
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// Pick reads the donor files (regular files up to program.MaxSize: a
// file of a directory that turns out to be a FIFO or a device is skipped,
// never read), drops those that do not parse (returned in
// skipped with why), and returns the max closest to target, most similar
// first (ties by path).
func Pick(target []byte, files []string, max int) (picked []Donor, skipped []string) {
	tg := grams(target)
	var all []Donor
	for _, f := range files {
		src, err := userfile.Read(f, program.MaxSize)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
				skipped = append(skipped, f+": "+err.Error())
			} else {
				skipped = append(skipped, err.Error())
			}
			continue
		}
		if _, err := program.Parse(f, src); err != nil {
			skipped = append(skipped, err.Error())
			continue
		}
		all = append(all, Donor{Path: f, Src: src, Similarity: jaccard(tg, grams(src))})
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].Similarity != all[j].Similarity {
			return all[i].Similarity > all[j].Similarity
		}
		return all[i].Path < all[j].Path
	})
	if max > 0 && len(all) > max {
		all = all[:max]
	}
	return all, skipped
}

var tokenRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*|[0-9]+(?:\.[0-9]+)?|"[^"\n]*"|'[^'\n]*'|[^\sA-Za-z0-9_]`)

// grams are the token bigrams of a program's code, comments left out: a
// normalised view in which renamed variables still share structure.
func grams(src []byte) map[string]bool {
	var toks []string
	for _, line := range strings.Split(string(src), "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		toks = append(toks, tokenRE.FindAllString(line, -1)...)
	}
	g := make(map[string]bool, len(toks))
	for i := 0; i+1 < len(toks); i++ {
		g[toks[i]+" "+toks[i+1]] = true
	}
	return g
}

// Similarity is the Jaccard index of two programs' token bigrams.
func Similarity(a, b []byte) float64 { return jaccard(grams(a), grams(b)) }

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := 0
	for k := range a {
		if b[k] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "mode " + m.String()
}
