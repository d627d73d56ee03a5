package pygen

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// compiler returns the shared Compiler, or skips without python3.
func compiler(t testing.TB) *Compiler {
	t.Helper()
	c := Shared(t)
	if c == nil {
		t.Skip("python3 not found")
	}
	return c
}

// TestGenerateCompiles: every generated program compiles with CPython.
func TestGenerateCompiles(t *testing.T) {
	c := compiler(t)
	n := 2000
	if testing.Short() {
		n = 50
	}
	for seed := uint64(0); seed < uint64(n); seed++ {
		src := Generate(rand.New(rand.NewPCG(seed, 0)), Config{})
		msg, err := c.Compile(src)
		if err != nil {
			t.Fatal(err)
		}
		if msg != "" {
			t.Errorf("seed %d: %s\n%s", seed, msg, src)
		}
	}
}

// TestDeterministic: a seed fixes the program; different seeds differ.
func TestDeterministic(t *testing.T) {
	a := Generate(rand.New(rand.NewPCG(7, 7)), Config{})
	b := Generate(rand.New(rand.NewPCG(7, 7)), Config{})
	if !bytes.Equal(a, b) {
		t.Errorf("the same seed gave two programs")
	}
	c := Generate(rand.New(rand.NewPCG(8, 7)), Config{})
	if bytes.Equal(a, c) {
		t.Errorf("seeds 7 and 8 gave the same program")
	}
}

// TestZeroInput: an empty fuzz input is the simplest program.
func TestZeroInput(t *testing.T) {
	got := string(Generate(rand.New(Bytes(nil)), Config{}))
	if want := "a = a\n"; got != want {
		t.Errorf("Generate(zeros) = %q, want %q", got, want)
	}
}

// FuzzGenerate: whatever the choices, the program compiles.
func FuzzGenerate(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{200, 150, 99, 250, 7, 180, 33, 255, 255, 90})
	f.Add(bytes.Repeat([]byte{255}, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		src := Generate(rand.New(Bytes(data)), Config{Stmts: 20})
		msg, err := compiler(t).Compile(src)
		if err != nil {
			t.Fatal(err)
		}
		if msg != "" {
			t.Fatalf("%s\n%s", msg, src)
		}
	})
}
