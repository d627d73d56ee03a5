package cpython

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"repair/fitness"
	"repair/program"
	"repair/sandbox"
)

// conftestScript prints, for each row's conftest.py source, whether
// real_pytest.configuring_hooks says it needs pytest configured in every
// child.
const conftestScript = `import json, os, sys
sys.argv = ["-c", "3", "4"]  # what protocol.py reads
sys.path.insert(0, os.environ["H_DIR"])
from h import real_pytest

print(json.dumps({name: real_pytest.configuring_hooks(text.encode()) for name, text in json.loads(sys.stdin.read())}))
`

// TestConftestHooks: a conftest.py whose hooks run only while pytest
// collects and runs the tests (tomlkit's pytest_generate_tests) loads
// into the configuration the server made once, so its candidates take
// the items collected once; a hook that runs before collection, or
// plugins it names, need a configuration in every child.
func TestConftestHooks(t *testing.T) {
	py := python(t)
	rows := []struct {
		name, text string
		perChild   bool
	}{
		{"fixtures only", "import pytest\n\n\n@pytest.fixture\ndef example():\n    return 1\n", false},
		{"generate tests", "def pytest_generate_tests(metafunc):\n    metafunc.parametrize('n', [1, 2])\n", false},
		{"collection and run hooks", "def pytest_collection_modifyitems(items):\n    items.reverse()\n\n\ndef pytest_runtest_setup(item):\n    pass\n", false},
		{"a hookimpl wrapper", "import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_call(item):\n    yield\n", false},
		{"addoption", "def pytest_addoption(parser):\n    parser.addoption('--slow', action='store_true')\n", true},
		{"configure", "def pytest_configure(config):\n    config.addinivalue_line('markers', 'slow: slow')\n", true},
		{"sessionstart", "def pytest_sessionstart(session):\n    pass\n", true},
		{"plugins named", "pytest_plugins = ['myplugin']\n", true},
		{"one of each", "def pytest_generate_tests(metafunc):\n    pass\n\n\ndef pytest_configure(config):\n    pass\n", true},
	}
	var in [][2]string
	for _, r := range rows {
		in = append(in, [2]string{r.name, r.text})
	}
	var got map[string]bool
	harnessScript(t, py, conftestScript, in, &got)
	for _, r := range rows {
		if got[r.name] != r.perChild {
			t.Errorf("%s: configured in every child %v, want %v", r.name, got[r.name], r.perChild)
		}
	}
}

// TestPytestGenerateTestsPartial: with a conftest.py that parametrizes
// tests in pytest_generate_tests, a candidate run on the items collected
// once gives what importing and collecting it gives, the hook's
// parameters included.
func TestPytestGenerateTestsPartial(t *testing.T) {
	py := realPytest(t)
	const mod = "def double(x):\n    return x + x + 1\n"
	const tests = "from mod import double\n\n\ndef test_double(n):\n    assert double(n) == 2 * n\n\n\ndef test_zero():\n    assert double(0) == 0\n"
	target, _ := moduleTestDir(t, "mod", mod, tests)
	conftest := "def pytest_generate_tests(metafunc):\n    if 'n' in metafunc.fixturenames:\n        metafunc.parametrize('n', [1, 2, 3])\n"
	if err := os.WriteFile(filepath.Join(filepath.Dir(target), "conftest.py"), []byte(conftest), 0o644); err != nil {
		t.Fatal(err)
	}
	suite, err := fitness.Load(filepath.Join(filepath.Dir(target), "test_mod.py"))
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEngine(t, sandbox.Options{Suite: suite, Target: target, Python: py.Path}, config{})
	p, err := program.Parse("mod.py", []byte(mod))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		text   string
		passed int
	}{{"x + x + 1", 0}, {"x + x", 4}, {"x * 3", 1}} {
		src, ch := p.RenderChange(patchOf(t, p, []edit{{op: program.ReplaceText, stmt: "return x + x + 1", site: "x + x + 1", text: tt.text}}))
		got, full := partialAndWhole(t, e, src, ch)
		if !slices.Equal(briefs(got), briefs(full)) {
			t.Errorf("return %s: with the change %v, whole %v", tt.text, briefs(got), briefs(full))
		}
		passed := 0
		for _, r := range got.Results {
			if r.Verdict == fitness.Passed {
				passed++
			}
		}
		if len(got.Results) != 4 || passed != tt.passed {
			t.Errorf("return %s: %d of %d cases passed, want %d of 4: %v", tt.text, passed, len(got.Results), tt.passed, briefs(got))
		}
	}
}
