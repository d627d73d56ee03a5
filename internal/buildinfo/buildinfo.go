// Package buildinfo says which build of the tool made a record: its
// version and the VCS revision the binary was built from.
package buildinfo

import "runtime/debug"

// Commit is the VCS revision of the running binary (with "+dirty" when
// built from a modified tree), or "" when the build did not record one
// (go run, go test).
func Commit() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" && dirty {
		rev += "+dirty"
	}
	return rev
}
