// A plan and its trials (Load); parse.go reads it, bugs.go its bugs.

package experiment

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"repair/fitness"
	"repair/internal/inputerr"
	"repair/internal/userfile"
	"repair/repair"
	"repair/sandbox"
)

// Plan is a loaded, validated experiment plan.
type Plan struct {
	// Path is the plan file and Dir its directory, against which the
	// plan's relative paths are resolved.
	Path, Dir string
	// Bugs are the programs to repair, in plan order.
	Bugs []*Bug
	// Seeds are the seeds every configuration runs with.
	Seeds []uint64
	// Configs are the parameter settings (the grid's combinations), each
	// with the value of every parameter (see Effective), in plan order and
	// without duplicates.
	Configs []Values
	// Varied are the parameters that take more than one value in Configs,
	// in the order of Params.
	Varied []string
	// Output is the directory the results files are written to.
	Output string
	// Engine, Sandbox and Python select and configure the engine
	// (--engine, --sandbox, --python); Workers is the number of worker
	// processes of the whole run (0: one per CPU).
	Engine, Sandbox, Python string
	Workers                 int
	// NoGuard and NoCheck turn off, for every trial, the overfitting
	// guard and the check of delivered fixes that repair applies by
	// default (the plan's "guard: false", "check: false").
	NoGuard, NoCheck bool
}

// Bug is one program with its suite.
type Bug struct {
	// Name identifies the bug in results: its folder as the plan names it
	// (relative to the plan's directory, or absolute when the plan gives
	// an absolute path; slash-separated), or the name the plan gives.
	Name string
	// Path is the target's path in the patches' diff headers: relative to
	// the bug's folder, so that `patch -p1` applies them there.
	Path string
	// Target and Tests are the files, as opened; TargetRel and TestsRel
	// are relative to the plan's directory.
	Target, Tests       string
	TargetRel, TestsRel string
	// Src is the target's source and Suite its loaded suite (read-only,
	// shared by the bug's trials).
	Src   []byte
	Suite *fitness.Suite
}

// Trial is one repair run of a plan: a bug, a configuration and a seed.
type Trial struct {
	// ID is a stable hash of (bug name, every parameter value, seed): the
	// same trial has the same ID in every run, shard and version of the
	// plan, and a different ID if anything it depends on changes.
	ID     string
	Bug    *Bug
	Params Values
	Seed   uint64
	// Config is the index of Params in Plan.Configs.
	Config int
}

// Command is the repair command that runs the trial by itself, from the
// plan's directory: its target, tests and seed, the engine and sandbox,
// and every parameter as a --flag=value (a preset first, when set).
func (t Trial) Command(engine string, iso sandbox.Isolation, noGuard bool) []string {
	cmd := []string{"repair", "--target", t.Bug.TargetRel, "--tests", t.Bug.TestsRel,
		"--seed", strconv.FormatUint(t.Seed, 10), "--engine", engine}
	if noGuard {
		cmd = append(cmd, "--guard-inputs", "0")
	}
	if name := isolationName(iso); name != "auto" {
		cmd = append(cmd, "--sandbox", name)
	}
	for _, p := range Params {
		v, ok := t.Params[p.Name]
		if !ok || (p.Name == "preset" && v == "") {
			continue
		}
		cmd = append(cmd, p.Flag+"="+v)
	}
	return cmd
}

// TrialID returns the ID of the trial of bug with params and seed: the
// first 16 hex digits of the SHA-256 of the canonical JSON
// {"bug":…,"parameters":{…sorted…},"seed":…}.
func TrialID(bug string, params Values, seed uint64) string {
	data, err := json.Marshal(struct {
		Bug    string `json:"bug"`
		Params Values `json:"parameters"`
		Seed   uint64 `json:"seed"`
	}{bug, params, seed})
	if err != nil {
		panic(err) // strings only
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// InShard reports whether the trial with the given ID belongs to shard k
// of n (1 <= k <= n): the first 64 bits of the ID modulo n equal k-1. A
// trial's shard thus depends only on the trial, not on the rest of the
// plan: growing a plan never moves a trial to another shard.
func InShard(id string, k, n int) bool {
	if n <= 1 {
		return true
	}
	b, err := hex.DecodeString(id)
	if err != nil || len(b) < 8 {
		return false
	}
	return binary.BigEndian.Uint64(b[:8])%uint64(n) == uint64(k-1)
}

// Trials lists every trial of the plan in the canonical order: by bug (plan
// order), then configuration (plan order), then seed.
func (p *Plan) Trials() []Trial {
	var out []Trial
	for _, b := range p.Bugs {
		for ci, c := range p.Configs {
			for _, s := range p.Seeds {
				out = append(out, Trial{ID: TrialID(b.Name, c, s), Bug: b, Params: c, Seed: s, Config: ci})
			}
		}
	}
	return out
}

// Options returns the search options of the trial (without Workers,
// Progress and Log, which the runner sets).
func (t Trial) Options() repair.Options {
	o, err := Options(t.Params)
	if err != nil {
		panic(fmt.Sprintf("trial %s: options validated when the plan was loaded: %v", t.ID, err))
	}
	o.Seed = t.Seed
	return o
}

// Load reads and validates the plan at path (YAML or JSON): every bug
// folder holds a suite and a target that load, every parameter value is
// one the repair command accepts, every combination passes the repair
// command's checks. Errors are inputerr errors of one line that name the
// file and the line or key at fault.
func Load(path string) (*Plan, error) {
	data, err := userfile.Read(path, MaxPlanSize)
	if err != nil {
		if inputerr.Is(err) {
			return nil, err
		}
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, inputerr.New("%s: %v", path, err)
	}
	return Parse(path, filepath.Dir(path), data)
}

// MaxPlanSize bounds a plan file.
const MaxPlanSize = 16 << 20
