// Package padded makes the large-file workload of scripts/scale_bench.py
// for Go benchmarks: a one-token bug in a function of a file padded with
// functions the suite never calls.
package padded

import (
	"fmt"
	"strings"
)

// templates are scale_bench.py's never-called helpers: four shapes, so
// that the file's statements are not all alike (the operators draw
// ingredients from them).
var templates = []string{
	"def helper_%[1]d(a, b):\n    total = a + %[1]d\n    for i in range(b):\n        if i %% %[2]d == 0:\n            total -= i\n        else:\n            total += a * i\n    return total\n",
	"def scale_%[1]d(items, factor=%[2]d):\n    out = []\n    for item in items:\n        if item is None:\n            continue\n        out.append(item * factor)\n    return out\n",
	"def find_%[1]d(xs, target):\n    lo, hi = 0, len(xs) - 1\n    while lo <= hi:\n        mid = (lo + hi) // 2\n        if xs[mid] < target:\n            lo = mid + 1\n        elif xs[mid] > target:\n            hi = mid - 1\n        else:\n            return mid\n    return -%[2]d\n",
	"def label_%[1]d(n):\n    if n < %[2]d:\n        return \"small\"\n    if n > %[1]d:\n        return \"large\"\n    return \"medium\"\n",
}

// Source returns src padded with never-called functions to about n
// lines, src halfway (scale_bench.py's lines-N when src is
// examples/middle's middle.py).
func Source(src []byte, n int) []byte {
	var before, after []string
	total := strings.Count(string(src), "\n")
	for k := 0; total < n; k++ {
		t := fmt.Sprintf(templates[k%len(templates)], k, 2+k%8)
		if k%2 == 0 {
			before = append(before, t)
		} else {
			after = append(after, t)
		}
		total += strings.Count(t, "\n") + 2
	}
	return []byte(strings.Join(append(append(before, string(src)), after...), "\n\n"))
}
