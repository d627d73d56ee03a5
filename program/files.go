package program

import (
	"bytes"
	"fmt"
	"strings"
)

// FileBoundary is the comment line that separates the files of a joined
// program (see [ParseFiles]). Edits never touch comments, so every
// candidate of a joined program keeps its boundaries.
const FileBoundary = "# ---- repair: the next file starts below ----"

// File is one file of a joined program.
type File struct {
	// Path names the file in diffs and messages.
	Path string
	// FirstLine is the joined program's line of the file's first line.
	FirstLine int
	// NoFinalNewline: the file does not end with a newline (Join added
	// one; Split takes it off again).
	NoFinalNewline bool
	// Donor files are ingredients only (see ParseWithDonors): candidates
	// are run, diffed and written without them.
	Donor bool
}

// ParseFiles parses several files as one program: their texts joined,
// each after the previous one's FileBoundary line, so that localization,
// mutation and crossover work across them and a patch may edit any of
// them. Each file must parse on its own (its errors name it).
// Program.Files says where each file starts; Path is the first file's.
func ParseFiles(paths []string, srcs [][]byte) (*Program, error) {
	if len(paths) != len(srcs) || len(paths) == 0 {
		return nil, fmt.Errorf("program: %d paths for %d files", len(paths), len(srcs))
	}
	if len(paths) == 1 {
		return Parse(paths[0], srcs[0])
	}
	for i, src := range srcs {
		if _, err := Parse(paths[i], src); err != nil {
			return nil, err
		}
	}
	joined, files, err := Join(paths, srcs)
	if err != nil {
		return nil, err
	}
	p, err := Parse(paths[0], joined)
	if err != nil {
		return nil, err
	}
	p.Files = files
	return p, nil
}

// ParseWithDonors parses a target with donor files after it: programs
// whose statements and expressions join the ingredients of insert,
// replace and expression edits (a class's correct submissions, a
// reference solution). Candidates keep the donors' text after the target
// (Strip takes it off before a run), diffs and writes leave them out, and
// descriptions name the donor file and line an ingredient came from. A
// donor that does not parse is an error naming it.
func ParseWithDonors(path string, src []byte, donorPaths []string, donors [][]byte) (*Program, error) {
	if len(donors) == 0 {
		return Parse(path, src)
	}
	p, err := ParseFiles(append([]string{path}, donorPaths...), append([][]byte{src}, donors...))
	if err != nil {
		return nil, err
	}
	for i := 1; i < len(p.Files); i++ {
		p.Files[i].Donor = true
	}
	return p, nil
}

// HasDonors reports whether p carries donor files.
func (p *Program) HasDonors() bool {
	for _, f := range p.Files {
		if f.Donor {
			return true
		}
	}
	return false
}

// DonorLine is the first line of p's donor files, or 0 without donors:
// statements from there on are ingredients, never targets of an edit.
func (p *Program) DonorLine() int {
	for _, f := range p.Files {
		if f.Donor {
			return f.FirstLine
		}
	}
	return 0
}

// Strip is the text of a candidate of p to run: without its donor files
// (their boundary line included); src itself when p has none.
func (p *Program) Strip(src []byte) []byte {
	if !p.HasDonors() {
		return src
	}
	if len(p.Files) > 1 && p.Files[1].Donor {
		// One target then donors: the text before the first boundary,
		// without copying (this runs for every candidate).
		i := boundaryIndex(src)
		if i < 0 {
			return src
		}
		out := src[:i]
		if p.Files[0].NoFinalNewline {
			out = bytes.TrimSuffix(out, []byte("\n"))
		}
		return out
	}
	parts, ok := p.SplitFiles(src)
	if !ok {
		return src
	}
	var b bytes.Buffer
	for i, f := range p.Files {
		if f.Donor {
			continue
		}
		if i > 0 {
			b.WriteString(FileBoundary + "\n")
		}
		b.Write(parts[i])
		if f.NoFinalNewline && i < len(p.Files)-1 && !p.Files[i+1].Donor {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// Join concatenates the files' texts with a FileBoundary line after each
// but the last.
func Join(paths []string, srcs [][]byte) ([]byte, []File, error) {
	var b bytes.Buffer
	files := make([]File, len(srcs))
	line := 1
	for i, src := range srcs {
		for _, l := range strings.Split(string(src), "\n") {
			if strings.TrimRight(l, "\r") == FileBoundary {
				return nil, nil, fmt.Errorf("%s: holds the line %q, which repair uses to join files", paths[i], FileBoundary)
			}
		}
		files[i] = File{Path: paths[i], FirstLine: line}
		b.Write(src)
		if len(src) == 0 || src[len(src)-1] != '\n' {
			files[i].NoFinalNewline = true
			b.WriteByte('\n')
		}
		line += bytes.Count(src, []byte("\n"))
		if files[i].NoFinalNewline {
			line++
		}
		if i < len(srcs)-1 {
			b.WriteString(FileBoundary + "\n")
			line++
		}
	}
	return b.Bytes(), files, nil
}

// SplitFiles cuts the text of a candidate of p back into its files' texts;
// ok is false when p is not joined or the text lost a boundary.
func (p *Program) SplitFiles(src []byte) (parts [][]byte, ok bool) {
	if len(p.Files) < 2 {
		return nil, false
	}
	parts = make([][]byte, 0, len(p.Files))
	rest := src
	for {
		i := boundaryIndex(rest)
		if i < 0 {
			parts = append(parts, rest)
			break
		}
		parts = append(parts, rest[:i])
		rest = rest[i+len(FileBoundary):]
		rest = bytes.TrimPrefix(rest, []byte("\r"))
		rest = bytes.TrimPrefix(rest, []byte("\n"))
	}
	if len(parts) != len(p.Files) {
		return nil, false
	}
	for i, f := range p.Files {
		if f.NoFinalNewline {
			parts[i] = bytes.TrimSuffix(parts[i], []byte("\n"))
		}
	}
	return parts, true
}

// boundaryIndex is the offset of the first FileBoundary line of src, or -1.
func boundaryIndex(src []byte) int {
	off := 0
	for off <= len(src) {
		j := bytes.Index(src[off:], []byte(FileBoundary))
		if j < 0 {
			return -1
		}
		at := off + j
		end := at + len(FileBoundary)
		if (at == 0 || src[at-1] == '\n') && (end == len(src) || src[end] == '\n' || src[end] == '\r') {
			return at
		}
		off = end
	}
	return -1
}

// FileOfLine maps a line of p to the file it is in and the line there:
// for a single file, p.Path and the line itself.
func (p *Program) FileOfLine(line int) (string, int) {
	for i := len(p.Files) - 1; i >= 0; i-- {
		if line >= p.Files[i].FirstLine {
			return p.Files[i].Path, line - p.Files[i].FirstLine + 1
		}
	}
	return p.Path, line
}

// Where is "line N", or for a joined program "PATH line N".
func (p *Program) Where(line int) string {
	if len(p.Files) < 2 {
		return fmt.Sprintf("line %d", line)
	}
	path, l := p.FileOfLine(line)
	return fmt.Sprintf("%s line %d", path, l)
}

// DiffTo is the unified diff from p's original to a candidate src: one
// section per file that changed (donor files are left out).
func (p *Program) DiffTo(src []byte) string {
	if len(p.Files) < 2 {
		return Diff(p.Path, p.Src, src)
	}
	olds, _ := p.SplitFiles(p.Src)
	news, ok := p.SplitFiles(src)
	if !ok {
		return Diff(p.Path, p.Src, src) // not reached: edits keep the boundaries
	}
	var b strings.Builder
	for i, f := range p.Files {
		if !f.Donor {
			b.WriteString(Diff(f.Path, olds[i], news[i]))
		}
	}
	return b.String()
}
