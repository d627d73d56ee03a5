package experiment

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTrimCommonDir(t *testing.T) {
	tests := []struct{ in, want []string }{
		{[]string{"/data/bench/median", "/data/bench/middle"}, []string{"median", "middle"}},
		{[]string{"bugs/a", "other/b"}, []string{"bugs/a", "other/b"}},
		{[]string{"../bench/a", "../bench/b/c"}, []string{"a", "b/c"}},
		{[]string{"middle"}, []string{"middle"}},
	}
	for _, tt := range tests {
		var rows []Row
		for _, v := range tt.in {
			rows = append(rows, Row{Value: v})
		}
		var got []string
		for _, r := range trimCommonDir(rows) {
			got = append(got, r.Value)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("trimCommonDir(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}
