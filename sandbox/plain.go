package sandbox

// PlainTest is one test of plain pytest's run of the original program.
type PlainTest struct {
	// ID is pytest's node id, as the engine's cases name it.
	ID string `json:"id"`
	// Outcome is "passed" (passed, skipped by a skip or skipif mark, an
	// xfail that failed, a non-strict xpass: what the tool passes),
	// "failed", "error" (in setup or teardown, or collecting), "timeout"
	// (past the case's timeout) or "skipped" (the test skipped itself).
	Outcome string `json:"outcome"`
	// Detail is the exception's last line, or the skip's reason.
	Detail string `json:"detail,omitempty"`
	// Cause, for a failure, is what in the sandbox made it happen, when
	// sandbox/cpython/plain.py recognises it.
	Cause *Cause `json:"cause,omitempty"`
}

// Cause is what in the sandbox made a test fail.
type Cause struct {
	// Kind is "env" (os.environ[Name] raised KeyError), "file" (Path
	// does not exist), "readonly" (writing Path was refused) or
	// "network".
	Kind string `json:"kind"`
	Name string `json:"name,omitempty"`
	// Path is the file's path on the host (mapped back from the copy of
	// the tree the sandbox may have had instead).
	Path string `json:"path,omitempty"`
}

// PlainRun is what plain pytest said of the original program.
type PlainRun struct {
	Tests []PlainTest
	// Errors are the collection errors (ID: the collector's node id).
	Errors []PlainTest
	// Exit is pytest's exit code.
	Exit int
	// Tree is the project's tree (its root on the host).
	Tree *Tree
	// Sandbox is where the tree was in the sandbox.
	Sandbox string
}
