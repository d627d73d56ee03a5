package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The commands the documentation shows run here, so that a documented
// example cannot break silently:
//
//   - every command of a ```sh block of README.md and docs/*.md runs in a
//     fresh copy of the repository, from its root, the block's commands in
//     one shell in order (a `cd` holds for the rest of the block). A
//     command must exit 0, or the code its trailing comment names
//     (`# exit 1`). A block fenced ```sh skip: REASON is shown, not run,
//     and must say why;
//   - every example of every command's --help runs as helpExamples says;
//   - a line that looks like a command anywhere else in the docs (an
//     indented block, a ``` or ```console block) is an error: a command is
//     shown in a ```sh block, a synopsis in a ```text block.
//
// Commands whose documented budget is long run with a smaller one:
// budgetCuts lists each replacement, and the test fails when one matches
// nothing any more.

// budgetCut is a replacement made in documented commands before they
// run: the first match of Old (a regular expression) becomes New ($1 and
// the like expand).
type budgetCut struct{ Old, New string }

var budgetCuts = []budgetCut{
	// 240 trials of up to 30 s: 5 of them (one shard of 48).
	{`(repair experiment run examples/plan\.yaml)(\s*#.*)?$`, "$1 --shard 1/48$2"},
	// A class of 30 submissions at the default 30 s each: 5 s each.
	{`(repair batch) (--tests examples/class/tests\.json examples/class/submissions)$`, "$1 --time-budget 5s $2"},
	// Benchmarks: one iteration. (The documented fuzz runs are not run
	// here: .ci/run fuzzes every target, one at a time, for a count.)
	{`-benchtime 3s`, "-benchtime 1x"},
}

// helpExample says how one example of a --help runs: in Dir of a copy
// of the repository that the examples share, in the order of the --help
// pages (Late ones after the others, Fresh ones in a copy of their own),
// with Env added and Cuts replaced; Server runs it as a server, stopped
// once it listens; Skip says why it does not run. {server} in a
// replacement is the URL of a `repair serve` the test starts.
type helpExample struct {
	Dir    string
	Env    []string
	Cuts   [][2]string
	Server bool
	Exit   int  // the exit status it must end with
	Late   bool // runs after the others (it reads what they wrote)
	Fresh  bool // runs in a copy of its own (it changes the examples)
	Skip   string
}

// helpExamples lists every example of every --help. An example not listed
// fails the test: say how it runs.
var helpExamples = map[string]helpExample{
	"repair --target examples/middle/middle.py --tests examples/middle/tests.json > fix.patch": {},
	"repair --target middle.py --tests tests.json --seed 7 --report run.json --write":          {Dir: "examples/middle", Fresh: true},
	"repair --preset book --target middle.py --tests tests.json":                               {Dir: "examples/middle"},

	"repair run --target examples/middle/middle.py --tests examples/middle/tests.json":                           {Exit: 1},
	"repair run --lenient --target examples/lenient/grades/grades.py --tests examples/lenient/grades/tests.json": {Exit: 1},
	"repair localize --target examples/middle/middle.py --tests examples/middle/tests.json --top 5":              {},

	"repair batch --tests tests.json submissions/": {Dir: "examples/class", Cuts: [][2]string{{"batch", "batch --time-budget 5s"}}},
	"repair batch --tests test_grade.py --time-budget 20s --report class.md --jsonl class.jsonl submissions/*.py": {
		Dir: "examples/class", Cuts: [][2]string{{"test_grade.py", "test_letter_grade.py"}, {"20s", "5s"}}},

	"repair serve": {Server: true, Cuts: [][2]string{{"serve", "serve --addr 127.0.0.1:0"}}},
	"repair serve --addr 0.0.0.0:5000 --token-file /etc/repair/token --workers 8": {
		Server: true, Cuts: [][2]string{{"0.0.0.0:5000", "127.0.0.1:0"}, {"/etc/repair/token", "$TOKEN_FILE"}, {"--workers 8", "--workers 1"}}},
	"repair --target middle.py --tests tests.json --executor http://10.0.0.5:5000,http://10.0.0.6:5000": {
		Dir: "examples/middle", Cuts: [][2]string{{"http://10.0.0.5:5000,http://10.0.0.6:5000", "{server}"}}},

	"repair experiment run examples/plan.yaml": {Cuts: [][2]string{{"plan.yaml", "plan.yaml --shard 1/48"}}},
	"repair experiment run plan.yaml --shard $((SLURM_ARRAY_TASK_ID+1))/$SLURM_ARRAY_TASK_COUNT": {
		Dir: "examples", Env: []string{"SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=48"}},
	"repair experiment run plan.yaml --dry-run":        {Dir: "examples"},
	"repair experiment report results/":                {Dir: "examples", Late: true},
	"repair experiment report results/ --plots plots/": {Dir: "examples", Late: true},
	"repair experiment report shard-*/results-*.jsonl --format csv > summary.csv": {
		Dir: "examples", Late: true, Cuts: [][2]string{{"shard-*/", "results/"}}},
}

// docBlock is a ```sh block of a document.
type docBlock struct {
	file string
	line int      // of the fence
	skip string   // why it does not run ("" runs it)
	cmds []docCmd // logical lines: continuations joined
}

type docCmd struct {
	line int
	text string
	exit int
}

var (
	fenceRE   = regexp.MustCompile("^```\\s*([A-Za-z]*)\\s*(.*)$")
	exitRE    = regexp.MustCompile(`#\s*exit\s+(\d+)\s*$`)
	commandRE = regexp.MustCompile(`^\s*(\$ )?(?:[A-Z_]+=\S*\s+)*(repair|go|python3|bin/repair|scripts/[\w.-]+|git|curl|kubectl|sbatch)\s+(\S+)`)
)

// looksLikeCommand reports whether a line of a non-shell block reads as a
// command rather than output ("repair: ..." and "repair serve: ..." are
// output).
func looksLikeCommand(l string) bool {
	m := commandRE.FindStringSubmatch(l)
	return m != nil && !strings.HasSuffix(m[3], ":") && !strings.HasPrefix(m[3], "(")
}

// parseDoc returns the ```sh blocks of a Markdown file and the lines that
// show a command outside them.
func parseDoc(name string, src []byte) (blocks []docBlock, stray []string, err error) {
	lines := strings.Split(string(src), "\n")
	var cur *docBlock
	inOther, otherLang := false, ""
	prevBlank := true
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := fenceRE.FindStringSubmatch(strings.TrimSpace(l)); m != nil && strings.HasPrefix(strings.TrimSpace(l), "```") {
			switch {
			case cur != nil:
				blocks = append(blocks, *cur)
				cur = nil
			case inOther:
				inOther = false
			default:
				lang, info := m[1], strings.TrimSpace(m[2])
				if lang == "sh" || lang == "bash" || lang == "shell" {
					b := docBlock{file: name, line: i + 1}
					if info != "" {
						reason, ok := strings.CutPrefix(info, "skip:")
						if !ok || strings.TrimSpace(reason) == "" {
							return nil, nil, fmt.Errorf("%s:%d: want ```%s or ```%s skip: REASON, got %q", name, i+1, lang, lang, info)
						}
						b.skip = strings.TrimSpace(reason)
					}
					cur = &b
				} else {
					inOther, otherLang = true, lang
				}
			}
			prevBlank = false
			continue
		}
		switch {
		case cur != nil:
			t := strings.TrimSpace(l)
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			c := docCmd{line: i + 1}
			for strings.HasSuffix(t, `\`) && i+1 < len(lines) {
				t = strings.TrimSpace(strings.TrimSuffix(t, `\`)) + " " + strings.TrimSpace(lines[i+1])
				i++
			}
			c.text = t
			if m := exitRE.FindStringSubmatch(t); m != nil {
				c.exit, _ = strconv.Atoi(m[1])
			}
			cur.cmds = append(cur.cmds, c)
		case inOther:
			if (otherLang == "" || otherLang == "console") && looksLikeCommand(l) {
				stray = append(stray, fmt.Sprintf("%s:%d: %s", name, i+1, strings.TrimSpace(l)))
			}
		default:
			// An indented code block: four spaces after a blank line or
			// after another indented line.
			if (strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t")) && prevBlank && looksLikeCommand(l) {
				stray = append(stray, fmt.Sprintf("%s:%d: %s", name, i+1, strings.TrimSpace(l)))
			}
			prevBlank = strings.TrimSpace(l) == "" || (prevBlank && (strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t")))
		}
	}
	if cur != nil {
		return nil, nil, fmt.Errorf("%s:%d: unterminated ``` block", name, cur.line)
	}
	return blocks, stray, nil
}

func TestParseDoc(t *testing.T) {
	src := "text\n\n    repair --target a.py --tests t.json\n\n" +
		"```sh\n# a comment\nrepair run --target a.py \\\n  --tests t.json   # exit 1\ncd x\n```\n" +
		"```sh skip: needs a cluster\nkubectl apply -f x\n```\n" +
		"```console\nrepair: a line of output\nrepair serve: listening\n$ repair operators\n```\n" +
		"```text\nrepair --target F --tests T\n```\n" +
		"\n    REPAIR_SOAK=1m go test ./repair\n"
	blocks, stray, err := parseDoc("d.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 {
		t.Fatalf("%d blocks, want 2: %+v", len(blocks), blocks)
	}
	want := []docCmd{{line: 7, text: "repair run --target a.py --tests t.json   # exit 1", exit: 1}, {line: 9, text: "cd x"}}
	if fmt.Sprint(blocks[0].cmds) != fmt.Sprint(want) || blocks[0].skip != "" {
		t.Errorf("block 1: %+v, want commands %+v", blocks[0], want)
	}
	if blocks[1].skip != "needs a cluster" || len(blocks[1].cmds) != 1 {
		t.Errorf("block 2: %+v", blocks[1])
	}
	wantStray := []string{"d.md:3: repair --target a.py --tests t.json", "d.md:17: $ repair operators", "d.md:23: REPAIR_SOAK=1m go test ./repair"}
	if fmt.Sprint(stray) != fmt.Sprint(wantStray) {
		t.Errorf("stray commands %q, want %q", stray, wantStray)
	}
	if _, _, err := parseDoc("d.md", []byte("```sh later\nrepair\n```\n")); err == nil || !strings.Contains(err.Error(), "d.md:1: want ```sh or ```sh skip: REASON") {
		t.Errorf("an unknown fence word: %v", err)
	}
}

// repoRoot is the repository's top directory.
const repoRoot = "../.."

// copyRepo copies the repository's files (not .git, not build output) to
// a new temporary directory.
func copyRepo(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, p)
		// .git is a file in a worktree: a copy must not point git at the
		// repository's index.
		if rel == ".git" || rel == "bin" || strings.HasSuffix(rel, "__pycache__") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(l, target)
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			return os.WriteFile(target, b, info.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// cutBudget applies budgetCuts to a command, counting their uses.
func cutBudget(cmd string, used map[string]int) string {
	for _, c := range budgetCuts {
		re := regexp.MustCompile(c.Old)
		if loc := re.FindStringSubmatchIndex(cmd); loc != nil {
			var out []byte
			out = re.ExpandString(out, c.New, cmd, loc)
			cmd = cmd[:loc[0]] + string(out) + cmd[loc[1]:]
			used[c.Old]++
		}
	}
	return cmd
}

// cut applies a --help example's replacements (plain text, the first
// occurrence of each).
func cut(cmd string, cuts [][2]string) string {
	for _, c := range cuts {
		cmd = strings.Replace(cmd, c[0], c[1], 1)
	}
	return cmd
}

// docFiles are README.md and docs/*.md.
func docFiles(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join(repoRoot, "README.md")}, files...)
}

// TestDocCommandsShown: the docs show commands in ```sh blocks only, so
// that TestDocCommands runs them.
func TestDocCommandsShown(t *testing.T) {
	for _, f := range docFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(repoRoot, f)
		_, stray, err := parseDoc(name, src)
		if err != nil {
			t.Error(err)
		}
		for _, s := range stray {
			t.Errorf("%s: a command outside a ```sh block (run it in one, or show a synopsis in a ```text block)", s)
		}
	}
}

// TestDocCommands runs the ```sh blocks of README.md and docs/*.md.
func TestDocCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the documented commands")
	}
	// Beside the scripts and the --help examples: each waits on
	// processes (Python's start, pytest's) more than it computes.
	t.Parallel()
	used := map[string]int{}
	ran := 0
	for _, f := range docFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(repoRoot, f)
		blocks, _, err := parseDoc(name, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			if b.skip != "" {
				t.Logf("%s:%d: not run: %s", b.file, b.line, b.skip)
				continue
			}
			ran++
			t.Run(fmt.Sprintf("%s:%d", b.file, b.line), func(t *testing.T) {
				runBlock(t, b, used)
			})
		}
	}
	if ran == 0 {
		t.Error("no ```sh block ran: the docs show no command, or the parser lost them")
	}
	for _, c := range budgetCuts {
		if used[c.Old] == 0 {
			t.Errorf("budgetCuts: %q matches no documented command any more; drop it", c.Old)
		}
	}
}

// runBlock runs one block's commands in one shell, in a fresh copy of
// the repository, each checked for its exit code.
func runBlock(t *testing.T, b docBlock, used map[string]int) {
	dir := copyRepo(t)
	var script strings.Builder
	script.WriteString("set -u\n")
	for _, c := range b.cmds {
		run := cutBudget(c.text, used)
		if run != c.text {
			t.Logf("%s:%d: run as %s", b.file, c.line, run)
		}
		fmt.Fprintf(&script, "%s\ns=$?; if [ $s -ne %d ]; then echo \"%s:%d: exit status $s, want %d\" >&2; exit 111; fi\n",
			run, c.exit, b.file, c.line, c.exit)
	}
	out, err := shell(t, dir, nil, script.String())
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// shell runs script with bash in dir, with a temporary directory of its
// own, and returns its combined output. Go commands build with -trimpath: the build cache keys a package built
// without it by its directory, so every copy would compile everything
// (tree-sitter's C included) again; with it, the first copy's build serves
// the others.
func shell(t *testing.T, dir string, env []string, script string) ([]byte, error) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	// A temporary directory of its own: tests the commands run count what
	// they leave in it, and other processes' leftovers must not count.
	cmd.Env = append(os.Environ(), "GOFLAGS=-trimpath", "TMPDIR="+t.TempDir())
	cmd.Env = append(cmd.Env, env...)
	return cmd.CombinedOutput()
}

// helpCommands returns the command paths of `repair` (subcommands of
// subcommands too) from its --help.
func helpCommands(t *testing.T, path []string) [][]string {
	out, err := exec.Command("repair", append(path, "--help")...).Output()
	if err != nil {
		t.Fatalf("repair %s --help: %v", strings.Join(path, " "), err)
	}
	all := [][]string{path}
	in := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "Available Commands:"):
			in = true
		case in && strings.TrimSpace(l) == "":
			in = false
		case in:
			name := strings.Fields(l)[0]
			if name != "help" && name != "completion" {
				all = append(all, helpCommands(t, append(append([]string(nil), path...), name))...)
			}
		}
	}
	return all
}

// helpExampleLines returns the lines of the Examples section of a --help.
func helpExampleLines(t *testing.T, path []string) []string {
	out, err := exec.Command("repair", append(path, "--help")...).Output()
	if err != nil {
		t.Fatalf("repair %s --help: %v", strings.Join(path, " "), err)
	}
	var ex []string
	in := false
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(l, "Examples:"):
			in = true
		case in && strings.TrimSpace(l) == "":
			in = false
		case in:
			ex = append(ex, strings.TrimSpace(l))
		}
	}
	return ex
}

// TestHelpExamples runs the examples of every command's --help.
func TestHelpExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the examples of --help")
	}
	t.Parallel()
	type example struct {
		page, text string
		spec       helpExample
	}
	var first, late []example
	seen := map[string]bool{}
	for _, path := range helpCommands(t, nil) {
		page := strings.Join(append([]string{"repair"}, path...), " ")
		for _, ex := range helpExampleLines(t, path) {
			seen[ex] = true
			spec, ok := helpExamples[ex]
			switch {
			case !ok:
				t.Errorf("%s --help shows %q, which helpExamples does not list: say how it runs", page, ex)
			case spec.Skip != "":
				t.Logf("not run: %s: %s", ex, spec.Skip)
			case spec.Late:
				late = append(late, example{page, ex, spec})
			default:
				first = append(first, example{page, ex, spec})
			}
		}
	}
	for ex := range helpExamples {
		if !seen[ex] {
			t.Errorf("helpExamples lists %q, which no --help shows any more: drop it", ex)
		}
	}
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	shared := copyRepo(t)
	server := ""
	for _, ex := range append(first, late...) {
		dir := shared
		if ex.spec.Fresh {
			dir = copyRepo(t)
		}
		run := cut(ex.text, ex.spec.Cuts)
		if strings.Contains(run, "{server}") {
			if server == "" {
				server = startServer(t, shared)
			}
			run = strings.ReplaceAll(run, "{server}", server)
		}
		if run != ex.text {
			t.Logf("%s: run as %s", ex.text, run)
		}
		env := append([]string{"TOKEN_FILE=" + token}, ex.spec.Env...)
		wd := filepath.Join(dir, ex.spec.Dir)
		if ex.spec.Server {
			serveUntilListening(t, wd, env, run)()
			continue
		}
		out, err := shell(t, wd, env, run)
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != ex.spec.Exit {
			t.Errorf("%s --help: %s (in %s): exit status %d, want %d\n%s", ex.page, run, filepath.Join(".", ex.spec.Dir), code, ex.spec.Exit, out)
		}
	}
}

// startServer starts `repair serve` on a free port of the loopback for
// the test's duration and returns its URL.
func startServer(t *testing.T, dir string) string {
	cmd := exec.Command("repair", "serve", "--addr", "127.0.0.1:0", "--workers", "1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
	url, stop := listen(t, cmd)
	t.Cleanup(stop)
	return url
}

// serveUntilListening runs a server's command line until it says it
// listens, then stops it with SIGINT; it must end with status 0.
func serveUntilListening(t *testing.T, dir string, env []string, line string) func() {
	cmd := exec.Command("bash", "-c", "exec "+line)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
	cmd.Env = append(cmd.Env, env...)
	_, stop := listen(t, cmd)
	return stop
}

var listenRE = regexp.MustCompile(`listening on (http://\S+?);`)

// listen starts cmd, waits for its "listening on URL" line on stderr and
// returns the URL and a function that stops it (SIGINT) and checks that
// it exits 0.
func listen(t *testing.T, cmd *exec.Cmd) (string, func()) {
	t.Helper()
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	found := make(chan string, 1)
	var log bytes.Buffer
	var mu sync.Mutex
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			mu.Lock()
			log.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if m := listenRE.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); pw.Close() }()
	var url string
	select {
	case url = <-found:
	case err := <-exited:
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("%v exited before it listened: %v\n%s", cmd.Args, err, log.String())
	}
	stopped := false
	return url, func() {
		if stopped {
			return
		}
		stopped = true
		cmd.Process.Signal(syscall.SIGINT)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		select {
		case err := <-exited:
			if err != nil {
				mu.Lock()
				defer mu.Unlock()
				t.Errorf("%v after SIGINT: %v\n%s", cmd.Args, err, log.String())
			}
		case <-ctx.Done():
			cmd.Process.Kill()
			t.Errorf("%v did not stop within 2 minutes of SIGINT", cmd.Args)
		}
	}
}

// TestTestCommandInCI: the test command README.md shows is the one
// .ci/run runs.
func TestTestCommandInCI(t *testing.T) {
	const testCmd = "go vet ./... && go test -timeout 30m ./..."
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks, _, err := parseDoc("README.md", readme)
	if err != nil {
		t.Fatal(err)
	}
	shown := false
	for _, b := range blocks {
		for _, c := range b.cmds {
			shown = shown || c.text == testCmd
		}
	}
	if !shown {
		t.Errorf("README.md shows no ```sh command %q", testCmd)
	}
	ci, err := os.ReadFile(filepath.Join(repoRoot, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains("\n"+string(ci), "\n"+testCmd+"\n") {
		t.Errorf(".ci/run does not run README.md's test command %q on a line of its own", testCmd)
	}
}

func TestCutBudget(t *testing.T) {
	tests := []struct{ in, want string }{
		{"repair experiment run examples/plan.yaml", "repair experiment run examples/plan.yaml --shard 1/48"},
		{"repair experiment run examples/plan.yaml   # run it", "repair experiment run examples/plan.yaml --shard 1/48   # run it"},
		{"repair experiment run examples/plan.yaml --shard 2/48", "repair experiment run examples/plan.yaml --shard 2/48"},
		{"go test -bench X -benchtime 3s ./p", "go test -bench X -benchtime 1x ./p"},
		{"repair operators", "repair operators"},
	}
	for _, tt := range tests {
		if got := cutBudget(tt.in, map[string]int{}); got != tt.want {
			t.Errorf("cutBudget(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
