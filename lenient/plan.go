package lenient

import (
	"encoding/json"
	"fmt"
)

// Plan is what lenient execution injects: a value class for every (kind,
// name) the program reads, predicted once from the original program, and
// the class of anything else (a name a candidate introduces). The search
// runs every candidate with the original's plan, so that candidates are
// compared on the same injected values. A Plan is immutable and may be
// shared by any number of goroutines.
type Plan struct {
	// Contexts are the contexts the classes were predicted from, sorted
	// by kind then name.
	Contexts []Context
	classes  map[string]Class
	def      Class
	encoded  []byte
}

// NewPlan analyzes src (see [Analyze]) and asks p for the class of every
// context. A nil p is [Rules].
func NewPlan(src []byte, p Predictor) (*Plan, error) {
	if p == nil {
		p = Rules{}
	}
	ctxs, err := Analyze(src)
	if err != nil {
		return nil, err
	}
	pl := &Plan{Contexts: ctxs, classes: map[string]Class{}, def: Object}
	for i := range ctxs {
		c := &ctxs[i]
		k := p.Predict(c)
		if !k.Valid() {
			return nil, fmt.Errorf("lenient: predictor gave %q for %s %s, not a value class", k, c.Kind, c.Name)
		}
		pl.classes[key(c.Kind, c.Name)] = k
	}
	pl.encoded, err = json.Marshal(struct {
		Default Class            `json:"default"`
		Classes map[string]Class `json:"classes"`
	}{pl.def, pl.classes})
	if err != nil {
		return nil, fmt.Errorf("lenient: encoding the plan: %w", err)
	}
	return pl, nil
}

// Class is the class injected for a missing (kind, name).
func (pl *Plan) Class(k Kind, name string) Class {
	if c, ok := pl.classes[key(k, name)]; ok {
		return c
	}
	return pl.def
}

// JSON is the plan as the engine's runtime reads it:
// {"default": CLASS, "classes": {"name:x": CLASS, "attr:y": CLASS,
// "call:z": CLASS, ...}}, keys sorted. The caller must not modify it.
func (pl *Plan) JSON() []byte { return pl.encoded }

// Entry is one prediction of a plan, for reports.
type Entry struct {
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	Class Class  `json:"class"`
	Line  int    `json:"line"` // of the first site
}

// Entries lists the plan's predictions, in the order of Contexts.
func (pl *Plan) Entries() []Entry {
	out := make([]Entry, 0, len(pl.Contexts))
	for _, c := range pl.Contexts {
		out = append(out, Entry{Kind: c.Kind.String(), Name: c.Name, Class: pl.classes[key(c.Kind, c.Name)], Line: c.Sites[0].Line})
	}
	return out
}
