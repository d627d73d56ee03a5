package session

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"repair/repair"
)

// testLog is a progress log on a buffer with a clock the test moves, and
// no ticker (the test calls tick).
func testLog(live, verbose bool, budget time.Duration) (*progressLog, *bytes.Buffer, *time.Time) {
	var buf bytes.Buffer
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := t0
	p := &progressLog{w: &buf, live: live, verbose: verbose, start: t0, budget: budget, said: t0, stopped: make(chan struct{})}
	p.now = func() time.Time { return now }
	return p, &buf, &now
}

func TestProgressLog(t *testing.T) {
	gen := func(n int) repair.Progress {
		return repair.Progress{Generation: n, Best: 0.5, Mean: 0.25, Evaluations: 40 * (n + 1), PerSecond: 80, Found: 0}
	}
	const clear = "\r\033[K"
	rows := []struct {
		name          string
		live, verbose bool
		steps         func(p *progressLog, now *time.Time)
		want          string
	}{
		{"a stage, then a notice above the live line", true, false, func(p *progressLog, now *time.Time) {
			p.Stage("search")
			*now = now.Add(2 * time.Second)
			p.Progress(gen(0))
			p.Write([]byte("repair: a notice\n"))
			p.Close()
		}, "repair: 0.0s: search\n" +
			clear + "0.0s elapsed, 5m00s left | search" +
			clear + "2.0s elapsed, 4m58s left | search | 40 evaluations, 80/s | best fitness 0.5000 | 0 fixes found" +
			clear + "repair: a notice\n" +
			clear + "2.0s elapsed, 4m58s left | search | 40 evaluations, 80/s | best fitness 0.5000 | 0 fixes found" +
			clear},
		{"a notice written in pieces goes out whole", true, false, func(p *progressLog, now *time.Time) {
			p.Stage("search")
			p.Write([]byte("repair: half"))
			p.Write([]byte(" and the rest\nrepair: next"))
			p.Close()
		}, "repair: 0.0s: search\n" + clear + "0.0s elapsed, 5m00s left | search" +
			clear + "repair: half and the rest\n" + clear + "0.0s elapsed, 5m00s left | search" +
			clear + "repair: next\n"},
		{"no terminal: a generation's line every few seconds at most", false, false, func(p *progressLog, now *time.Time) {
			p.Progress(gen(0))
			*now = now.Add(time.Second)
			p.Progress(gen(1)) // too soon: not printed
			*now = now.Add(lineEvery)
			p.Progress(gen(2))
			p.Close()
		}, "repair: generation 0: best fitness 0.5000, mean 0.2500, 40 evaluations (80/s), 0 cache hits, 0 fixes found; 0.0s elapsed, 5m00s left\n" +
			"repair: generation 2: best fitness 0.5000, mean 0.2500, 120 evaluations (80/s), 0 cache hits, 0 fixes found; 6.0s elapsed, 4m54s left\n"},
		{"no terminal, -v: every generation, the stages with their times", false, true, func(p *progressLog, now *time.Time) {
			p.Stage("localize")
			*now = now.Add(1500 * time.Millisecond)
			p.Stage("search")
			p.Progress(gen(0))
			p.Progress(gen(1))
			p.Close()
		}, "repair: 0.0s: localize\n" +
			"repair: 1.5s: search (localize took 1.5s)\n" +
			"repair: generation 0: best fitness 0.5000, mean 0.2500, 40 evaluations (80/s), 0 cache hits, 0 fixes found; 1.5s elapsed, 4m58s left\n" +
			"repair: generation 1: best fitness 0.5000, mean 0.2500, 80 evaluations (80/s), 0 cache hits, 0 fixes found; 1.5s elapsed, 4m58s left\n"},
		{"held: bad input drops what the run said before it was valid", false, false, func(p *progressLog, now *time.Time) {
			p.held = true
			p.Write([]byte("repair: the first line\n"))
			p.Stage("engine start")
			p.Close()
		}, ""},
		{"held, then released: everything in order", false, false, func(p *progressLog, now *time.Time) {
			p.held = true
			p.Write([]byte("repair: the first line\n"))
			p.Stage("engine start")
			p.release()
			p.Stage("original run")
			p.Close()
		}, "repair: the first line\nrepair: 0.0s: engine start\nrepair: 0.0s: original run\n"},
		{"no terminal: a long silence gets a line saying the run is alive", false, false, func(p *progressLog, now *time.Time) {
			p.Stage("original run")
			*now = now.Add(heartbeat - time.Second)
			p.tick() // not yet
			*now = now.Add(time.Second)
			p.tick()
			p.Close()
		}, "repair: 0.0s: original run\n" +
			"repair: original run, 15.0s elapsed, 4m45s left\n"},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			p, buf, now := testLog(row.live, row.verbose, 5*time.Minute)
			row.steps(p, now)
			if got := buf.String(); got != row.want {
				t.Errorf("got\n%q\nwant\n%q", got, row.want)
			}
		})
	}
}

func TestShort(t *testing.T) {
	for d, want := range map[time.Duration]string{
		400 * time.Millisecond: "0.4s", 59 * time.Second: "59.0s", 247 * time.Second: "4m07s", 62 * time.Minute: "1h02m",
	} {
		if got := Short(d); got != want {
			t.Errorf("Short(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestPluralNoun(t *testing.T) {
	for _, c := range []struct {
		n          int
		noun, want string
	}{{1, "fix", "fix"}, {2, "fix", "fixes"}, {0, "submission", "submissions"}, {1, "worker", "worker"}} {
		if got := PluralNoun(c.n, c.noun); !strings.EqualFold(got, c.want) {
			t.Errorf("PluralNoun(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}
