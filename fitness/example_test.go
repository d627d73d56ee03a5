package fitness_test

import (
	"context"
	"fmt"

	"repair/fitness"
)

func Example() {
	suite, err := fitness.Parse("tests.json", []byte(`{
		"function": "middle",
		"tests": [
			{"args": [2, 1, 3], "expected": 2},
			{"args": [3, 2, 1], "expected": 2},
			{"name": "equal", "args": [5, 5, 5], "expected": 5, "weight": 3}
		]
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := suite.CheckTarget("middle.py", []string{"middle"}); err != nil {
		fmt.Println(err)
		return
	}

	// The original program fails the first case.
	original := &fitness.Outcome{Results: []fitness.Result{
		{Verdict: fitness.WrongAnswer}, {Verdict: fitness.Passed}, {Verdict: fitness.Passed},
	}}
	scorer, err := fitness.NewScorer(suite, original, fitness.DefaultWeights())
	if err != nil {
		fmt.Println(err)
		return
	}
	cache := fitness.NewCache(scorer, 0)

	// A candidate that fixes the bug; run stands for the sandbox engine.
	candidate := []byte("def middle(x, y, z): ...\n")
	run := func(ctx context.Context) (*fitness.Outcome, error) {
		return &fitness.Outcome{Results: []fitness.Result{
			{Verdict: fitness.Passed}, {Verdict: fitness.Passed}, {Verdict: fitness.Passed},
		}}, nil
	}
	for range 2 {
		e, err := cache.Eval(context.Background(), candidate, run)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(e.Score, e.Passed())
	}
	s := cache.Stats()
	fmt.Println("hits", s.Hits, "misses", s.Misses)
	fmt.Println(scorer.Score(original))
	// Output:
	// 1 true
	// 1 true
	// hits 1 misses 1
	// 0.99
}

func ExampleSuite_CheckTarget() {
	suite, _ := fitness.Parse("tests.json", []byte(`{"function": "midle", "tests": [{"args": [1, 2, 3], "expected": 2}]}`))
	fmt.Println(suite.CheckTarget("examples/middle/middle.py", []string{"middle"}))
	// Output:
	// tests.json: function: "midle" is not defined in middle.py (did you mean "middle"?)
}

func ExampleEqualStdout() {
	fmt.Println(fitness.EqualStdout("x = 1.4142\n", "x = 1.41421356   \n\n", 1e-3))
	fmt.Println(fitness.EqualStdout("nan\n", "nan\n", 1e-3))
	// Output:
	// true
	// false
}
