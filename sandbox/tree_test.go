package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"repair/sandbox"
)

// TestFindTree: the tree a test-file suite runs in is the project as
// pytest sees it from where the user runs it.
func TestFindTree(t *testing.T) {
	tests := []struct {
		name    string
		files   []string // made empty under the test's directory
		targets []string
		test    string
		cwd     string // relative to the test's directory; "" runs elsewhere
		want    *sandbox.Tree
	}{
		{
			name:    "a module beside its tests",
			files:   []string{"p/m.py", "p/test_m.py"},
			targets: []string{"p/m.py"}, test: "p/test_m.py",
			want: &sandbox.Tree{Root: "p", TestFile: "test_m.py", Targets: []sandbox.TreeTarget{{Module: "m", File: "m.py"}}},
		},
		{
			name:    "a src layout under a pytest.ini, run from tests/",
			files:   []string{"p/pytest.ini", "p/src/shop/__init__.py", "p/src/shop/pricing.py", "p/tests/test_cart.py", "p/tests/data/cart.json"},
			targets: []string{"p/src/shop/pricing.py"}, test: "p/tests/test_cart.py", cwd: "p/tests",
			want: &sandbox.Tree{Root: "p", Cwd: "tests", TestFile: "tests/test_cart.py",
				Targets: []sandbox.TreeTarget{{Module: "shop.pricing", File: "src/shop/pricing.py", ImportRoot: "src"}}},
		},
		{
			name:    "a package's __init__.py is the package",
			files:   []string{"p/tabulate/__init__.py", "p/test/test_output.py", "p/test/common.py"},
			targets: []string{"p/tabulate/__init__.py"}, test: "p/test/test_output.py", cwd: "p",
			want: &sandbox.Tree{Root: "p", TestFile: "test/test_output.py",
				Targets: []sandbox.TreeTarget{{Module: "tabulate", File: "tabulate/__init__.py", Package: true}}},
		},
		{
			name:    "run from the project's root above the files",
			files:   []string{"p/lib/a/x.py", "p/lib/a/test_x.py", "p/data/in.json"},
			targets: []string{"p/lib/a/x.py"}, test: "p/lib/a/test_x.py", cwd: "p",
			want: &sandbox.Tree{Root: "p", TestFile: "lib/a/test_x.py", Targets: []sandbox.TreeTarget{{Module: "x", File: "lib/a/x.py", ImportRoot: "lib/a"}}},
		},
		{
			name:    "a configuration two levels up widens the tree",
			files:   []string{"p/pyproject.toml", "p/pkg/sub/m.py", "p/pkg/sub/test_m.py"},
			targets: []string{"p/pkg/sub/m.py"}, test: "p/pkg/sub/test_m.py",
			want: &sandbox.Tree{Root: "p", TestFile: "pkg/sub/test_m.py", Targets: []sandbox.TreeTarget{{Module: "m", File: "pkg/sub/m.py", ImportRoot: "pkg/sub"}}},
		},
		{
			name:    "several targets",
			files:   []string{"p/a/one.py", "p/b/two.py", "p/t/test_x.py"},
			targets: []string{"p/a/one.py", "p/b/two.py"}, test: "p/t/test_x.py",
			want: &sandbox.Tree{Root: "p", TestFile: "t/test_x.py", Targets: []sandbox.TreeTarget{
				{Module: "one", File: "a/one.py", ImportRoot: "a"}, {Module: "two", File: "b/two.py", ImportRoot: "b"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range tt.files {
				p := filepath.Join(dir, f)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var targets []string
			for _, tg := range tt.targets {
				targets = append(targets, filepath.Join(dir, tg))
			}
			cwd := ""
			if tt.cwd != "" {
				cwd = filepath.Join(dir, tt.cwd)
			}
			got, err := sandbox.FindTree(targets, filepath.Join(dir, tt.test), cwd)
			if err != nil {
				t.Fatal(err)
			}
			want := *tt.want
			want.Root = filepath.Join(dir, want.Root)
			if diff := cmp.Diff(&want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFindTreeRefuses: a tree that would be a home directory or the
// temporary directory itself is never shown to candidates.
func TestFindTreeRefuses(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"m.py", "test_m.py", "proj/pyproject.toml", "proj/x/m.py", "proj/x/test_m.py"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("files straight in the temporary directory", func(t *testing.T) {
		t.Setenv("TMPDIR", dir)
		got, err := sandbox.FindTree([]string{filepath.Join(dir, "m.py")}, filepath.Join(dir, "test_m.py"), dir)
		if err != nil || got != nil {
			t.Errorf("FindTree = %+v, %v; want nil", got, err)
		}
	})
	t.Run("run from the home directory", func(t *testing.T) {
		t.Setenv("HOME", dir)
		x := filepath.Join(dir, "proj", "x")
		got, err := sandbox.FindTree([]string{filepath.Join(x, "m.py")}, filepath.Join(x, "test_m.py"), dir)
		if err != nil {
			t.Fatal(err)
		}
		if got == nil || got.Root != filepath.Join(dir, "proj") {
			t.Errorf("FindTree = %+v; want the root %s (the configuration's, not the home directory)", got, filepath.Join(dir, "proj"))
		}
	})
}

// TestEnvironmentBuild: the standard environment, what --env and
// --pass-env add, and nothing else.
func TestEnvironmentBuild(t *testing.T) {
	t.Setenv("REPAIR_TEST_SECRET", "leaked")
	tests := []struct {
		name string
		env  sandbox.Environment
		bin  string
		want []string
	}{
		{"empty", sandbox.Environment{}, "/opt/py/bin", []string{"PYTHONHASHSEED=0"}},
		{"standard", sandbox.Environment{Standard: true}, "/opt/py/bin", []string{
			"HOME=/sb/home", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "PATH=/opt/py/bin:/usr/local/bin:/usr/bin:/bin",
			"PYTHONHASHSEED=0", "TMPDIR=/sb/tmp", "TZ=UTC"}},
		{"variables win, the last one", sandbox.Environment{Standard: true, Vars: []string{"TZ=Europe/Paris", "APP=1", "APP=2=3", "EMPTY="}}, "/opt/py/bin", []string{
			"APP=2=3", "EMPTY=", "HOME=/sb/home", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "PATH=/opt/py/bin:/usr/local/bin:/usr/bin:/bin",
			"PYTHONHASHSEED=0", "TMPDIR=/sb/tmp", "TZ=Europe/Paris"}},
		{"a system interpreter is on PATH once", sandbox.Environment{Standard: true}, "/usr/bin", []string{
			"HOME=/sb/home", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "PATH=/usr/bin:/usr/local/bin:/bin",
			"PYTHONHASHSEED=0", "TMPDIR=/sb/tmp", "TZ=UTC"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.env.Build(tt.bin, "/sb")); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheckEnvVar(t *testing.T) {
	tests := []struct {
		s     string
		value bool
		ok    bool
	}{
		{"A=1", true, true},
		{"_x9=", true, true},
		{"A", true, false},
		{"=1", true, false},
		{"9A=1", true, false},
		{"A-B=1", true, false},
		{"A=\x00", true, false},
		{"HOME", false, true},
		{"A=1", false, false},
		{"", false, false},
	}
	for _, tt := range tests {
		if err := sandbox.CheckEnvVar(tt.s, tt.value); (err == nil) != tt.ok {
			t.Errorf("CheckEnvVar(%q, %v) = %v; want ok %v", tt.s, tt.value, err, tt.ok)
		}
	}
}
