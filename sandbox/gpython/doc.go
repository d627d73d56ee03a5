// Package gpython is the embedded engine: it runs candidates under
// github.com/go-python/gpython in worker processes of our own binary, so
// that repair works where no CPython is installed.
package gpython

import _ "github.com/go-python/gpython/stdlib" // py.Compile, py.NewContext and the built-in modules
