package fitness
import ("testing";"fmt";"path/filepath")
func TestScratch(t *testing.T) {
	files, _ := filepath.Glob("/work/shared/bench/*/tests.json")
	files = append(files, "../examples/middle/tests.json")
	for _, f := range files {
		s, err := Load(f)
		if err != nil { t.Error(err); continue }
		fmt.Println(f, len(s.Cases), s.Function, s.Target, s.Cases[0].Name, string(s.Cases[0].Args))
	}
	for _, in := range []string{`{"tests":[{"args":[1],"expectd":2}]}`, `{"tests":[{"args":{},"expected":2}]}`, "{\"tests\":[\n {\"args\":[1,NaN]}]}", "[1, -Infinity]", "{\"a\":1\n", `{"tests":[{"args":[1],"expected":1}], "function":"f", "memory":3}`,
	"{\"args\":[1],\"expected\":1,\"function\":\"f\"}\n\n{\"args\":[2], \"expected\":{}}\n{\"args\":3}", "{\"args\":[1],\"expected\":1,\"function\":\"f\"}\n{\"args\":[1] x", `[{"args":[1],"expected":1}]`, `[]`, `{"tests":[]}`, `{"tests":[{"args":[1,2],"expected_args":[1]}]}`, `{"tests":[{"stdin":"x","args":[1]}]}`, `{"tests":[{"stdin":"x","stdout":"y"}]}`} {
		s, err := Parse("tests.json", []byte(in))
		if err != nil { fmt.Println(err); continue }
		fmt.Printf("%+v\n", s.Cases)
	}
}
