// Progress on stderr: the stages as they start, and the search's state:
// on a terminal one live line that notices never break, elsewhere a line
// every few seconds at most.

package session

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"repair/repair"
)

// Intervals of the progress output.
const (
	// liveRedraw is how often the live line is redrawn (its clock ticks).
	liveRedraw = 250 * time.Millisecond
	// lineEvery is the least time between two progress lines without a
	// terminal (-v prints every generation).
	lineEvery = 5 * time.Second
	// heartbeat is the longest silence without a terminal: a line says
	// the run is alive when nothing was printed for that long.
	heartbeat = 15 * time.Second
	// firstOutput is when a terminal sees the held output (the first
	// line, the stages) at the latest.
	firstOutput = 800 * time.Millisecond
)

// progressLog is the run's stderr while it lasts: notices written to it
// go out whole lines at a time, above the live line on a terminal.
type progressLog struct {
	mu      sync.Mutex
	w       io.Writer
	live    bool // a terminal: one line redrawn in place
	verbose bool // every generation gets a line
	start   time.Time
	budget  time.Duration // 0: no time budget
	stage   string
	stageAt time.Time
	last    *repair.Progress
	drawn   bool      // the live line is on the screen
	said    time.Time // the last line printed (not live)
	shown   time.Time // the last progress line printed (not live)
	pending []byte    // a notice's line not ended yet
	width   int
	now     func() time.Time // the clock (time.Now; tests set their own)
	// held: what is written waits in heldBuf until release (what a run
	// says before it is known to be a valid run); Close drops it, so that
	// bad input is the one line the user sees.
	held    bool
	heldBuf []byte
	stopped chan struct{}
	stop    sync.Once
	done    sync.WaitGroup
}

// newProgressLog starts the progress output on w; live when w is a
// terminal. start is when the run started, budget its time budget. Its
// output is held until release, or on a terminal until firstOutput has
// passed (a person waits; a log file gets the held lines at release).
func newProgressLog(w io.Writer, live, verbose bool, start time.Time, budget time.Duration) *progressLog {
	p := &progressLog{w: w, live: live, verbose: verbose, start: start, budget: budget, said: start, now: time.Now, held: true, stopped: make(chan struct{})}
	if live {
		t := time.AfterFunc(firstOutput-time.Since(start), p.release)
		go func() { <-p.stopped; t.Stop() }()
	}
	if f, ok := w.(*os.File); ok && live {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil {
			p.width = cols
		}
	}
	every := liveRedraw
	if !live {
		every = time.Second
	}
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.stopped:
				return
			case <-t.C:
				p.tick()
			}
		}
	}()
	return p
}

// Write prints notices: whole lines, above the live line.
func (p *progressLog) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pending = append(p.pending, b...)
	i := bytes.LastIndexByte(p.pending, '\n')
	if i < 0 {
		return len(b), nil
	}
	lines := p.pending[:i+1]
	p.clearLocked()
	p.out(lines)
	p.said = p.now()
	p.pending = append([]byte(nil), p.pending[i+1:]...)
	p.drawLocked()
	return len(b), nil
}

// Stage announces a stage as it starts: a line, and the live line's.
func (p *progressLog) Stage(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if name == p.stage {
		return
	}
	now := p.now()
	p.clearLocked()
	took := ""
	if p.verbose && p.stage != "" {
		took = fmt.Sprintf(" (%s took %s)", p.stage, Short(now.Sub(p.stageAt)))
	}
	p.outf("repair: %s: %s%s\n", Short(now.Sub(p.start)), name, took)
	p.said = now
	p.stage, p.stageAt = name, now
	p.drawLocked()
}

// Progress takes a generation's figures: the live line shows them; without
// a terminal a line says them, at most every lineEvery (each with -v).
func (p *progressLog) Progress(g repair.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last = &g
	if p.live {
		if p.verbose {
			p.clearLocked()
			p.outf("repair: %s\n", generationLine(g))
		}
		p.drawLocked()
		return
	}
	now := p.now()
	if p.verbose || p.shown.IsZero() || now.Sub(p.shown) >= lineEvery {
		p.outf("repair: %s; %s\n", generationLine(g), p.clock(now))
		p.shown, p.said = now, now
	}
}

// generationLine is a generation's figures.
func generationLine(g repair.Progress) string {
	return fmt.Sprintf("generation %d: best fitness %.4f, mean %.4f, %d evaluations (%.0f/s), %d cache hits, %s found",
		g.Generation, g.Best, g.Mean, g.Evaluations, g.PerSecond, g.CacheHits, Plural(g.Found, "fix"))
}

// clock is the time spent and, with a budget, the time left.
func (p *progressLog) clock(now time.Time) string {
	s := Short(now.Sub(p.start)) + " elapsed"
	if p.budget > 0 {
		s += ", " + Short(max(p.budget-now.Sub(p.start), 0)) + " left"
	}
	return s
}

// tick redraws the live line (its clock), or without a terminal says the
// run is alive after a long silence.
func (p *progressLog) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if p.live {
		p.drawLocked()
		return
	}
	if !p.held && now.Sub(p.said) >= heartbeat && p.stage != "" {
		p.outf("repair: %s, %s\n", p.stage, p.clock(now))
		p.said = now
	}
}

// drawLocked draws the live line.
func (p *progressLog) drawLocked() {
	if !p.live || p.stage == "" || p.held {
		return
	}
	s := p.clock(p.now()) + " | " + p.stage
	if g := p.last; g != nil {
		s += fmt.Sprintf(" | %d evaluations, %.0f/s | best fitness %.4f | %s found", g.Evaluations, g.PerSecond, g.Best, Plural(g.Found, "fix"))
	}
	if p.width > 1 && len(s) >= p.width {
		s = s[:p.width-1]
	}
	fmt.Fprintf(p.w, "\r\033[K%s", s)
	p.drawn = true
}

// out writes b, or keeps it while the output is held.
func (p *progressLog) out(b []byte) {
	if p.held {
		p.heldBuf = append(p.heldBuf, b...)
		return
	}
	p.w.Write(b)
}

func (p *progressLog) outf(format string, args ...any) {
	p.out([]byte(fmt.Sprintf(format, args...)))
}

// release writes what was held and lets the output through from now on.
func (p *progressLog) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.held {
		return
	}
	p.held = false
	p.w.Write(p.heldBuf)
	p.heldBuf = nil
	p.drawLocked()
}

// clearLocked erases the live line, if drawn.
func (p *progressLog) clearLocked() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

// Close stops the output: the live line is erased, a notice's last line
// printed.
func (p *progressLog) Close() {
	p.stop.Do(func() { close(p.stopped) })
	p.done.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
	if len(p.pending) > 0 {
		p.out(append(p.pending, '\n'))
		p.pending = nil
	}
	p.stage = ""
	// Never released: the run ended before it was known to be valid (bad
	// input): its one line is all the user sees.
	p.held, p.heldBuf = false, nil
}

// Short formats a duration for a person: 0.4s, 12.3s, 4m07s, 1h02m.
func Short(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// PluralNoun is noun for one, nouns for others: "fix", "fixes".
func PluralNoun(n int, noun string) string {
	if n == 1 {
		return noun
	}
	if strings.HasSuffix(noun, "x") || strings.HasSuffix(noun, "s") || strings.HasSuffix(noun, "sh") || strings.HasSuffix(noun, "ch") {
		return noun + "es"
	}
	return noun + "s"
}
