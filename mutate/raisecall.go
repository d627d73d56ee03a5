// raise-call: a forgotten raise put back in front of a call that makes
// an exception.

package mutate

import (
	"regexp"
	"strings"

	"repair/program"
)

// errorCallee matches a call statement whose callee names an exception
// or a function that makes one: ValueError(...), self.parse_error(...),
// errors.make_exception(...). Its first group is the callee's last name.
var errorCallee = regexp.MustCompile(`^(?:[A-Za-z_][A-Za-z0-9_]*\.)*([A-Za-z_][A-Za-z0-9_]*)\s*\(`)

// exceptionName matches the last name of such a callee.
var exceptionName = regexp.MustCompile(`(?i)(error|exception|exc)$`)

// raisable reports whether statement s is a call, alone on its line, of
// something that makes an exception: the callee's last name ends in
// Error, Exception or exc (any case), or is a class the file raises. The
// call's value is thrown away, so "raise " before it is what its author
// meant (self.parse_error(UnexpectedCharError, c) made the error and
// dropped it).
func (c *Context) raisable(s int) bool {
	st := &c.Prog.Stmts[s]
	if st.Kind != "expression_statement" || st.Compound {
		return false
	}
	text := strings.TrimSpace(c.Prog.StmtText(s))
	if strings.ContainsAny(text, "\r\n;") || !callAlone(text) {
		return false
	}
	m := errorCallee.FindStringSubmatch(text)
	if m == nil {
		return false
	}
	if exceptionName.MatchString(m[1]) {
		return true
	}
	for _, r := range c.raisedClasses() {
		if r.class == m[1] || strings.HasSuffix(r.class, "."+m[1]) {
			return true
		}
	}
	return false
}

// callAlone reports whether text is one call and nothing else: the
// bracket opened after the callee closes at its last byte (brackets in
// string literals do not count).
func callAlone(text string) bool {
	open := strings.IndexByte(text, '(')
	if open < 0 || !strings.HasSuffix(text, ")") {
		return false
	}
	end := -1
	outsideStrings(text[open:], func(i, depth int) bool {
		if depth == 0 {
			end = open + i
			return false
		}
		return true
	})
	return end == len(text)-1
}

// raiseCallTargets are raise-call's: call statements that make an
// exception and drop it.
var raiseCallTargets = keptStmts((*Context).raisable)

var opRaiseCall = Operator{
	Name: "raise-call",
	Doc: "raise the exception a call statement makes and drops\n\n" +
		"self.parse_error(UnexpectedCharError, c) into raise self.parse_error(...),\n" +
		"ValueError(msg) into raise ValueError(msg): a call whose callee ends in Error,\n" +
		"Exception or exc, or is a class the file raises.",
	Targets: raiseCallTargets.get,
	Weight:  0.1,
	Edits: func(c *Context, s int, emit func(program.Edit)) {
		emit(program.Edit{Op: program.ReplaceLine, Stmt: s, Text: "raise " + strings.TrimSpace(c.Prog.StmtText(s))})
	},
}
