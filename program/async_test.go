package program

import "testing"

// TestAsyncText: the keywords await and async are found in code, and in
// an f-string's fields, not in plain strings, comments or longer names.
func TestAsyncText(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"await f()", true},
		{"[x async for x in y]", true},
		{"{k: v async for k, v in items()}", true},
		{"g(1, await h)", true},
		{"awaited + yielded", false},
		{"my_await(async_)", false},
		{"'await the lock'", false},
		{`"say \"await\" " + x`, false},
		{`rb'async'`, false},
		{`"""async
await"""`, false},
		{"x  # await later\n+ y", false},
		{`f"await {x}"`, false},
		{`f"{{await}}"`, false},
		{`f"{await g()}"`, true},
		{`F'{x!r} {[a async for a in b]}'`, true},
		{`f"{x:{w}}"`, false},
		{`f"{`, false},
		{"", false},
	}
	for _, tt := range tests {
		if got := AsyncText(tt.text); got != tt.want {
			t.Errorf("AsyncText(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// asyncSrc has an async function with an await and an async
// comprehension, a class body, a lambda and a plain def inside it, and a
// plain function.
const asyncSrc = `async def f(y, g):
    v = await g()
    acc = [x async for x in y]
    w = len(y)
    if w:
        pass
    class C:
        n = len(y)
    k = lambda: len(y)
    def h():
        return len(y)
    return acc, v, k, h


def plain(y):
    u = len(y)
    if u:
        pass
    return u
`

// TestAsyncResolve: an edit that brings an await or an async comprehension
// to a place outside an async function is dropped, and the ones kept
// compile: the sites of the async function's own body take them, its
// class body, lambda and nested def do not, nor does another function.
func TestAsyncResolve(t *testing.T) {
	p := mustParse(t, asyncSrc)
	lenAt := func(n int) int { return siteAt(t, p, SiteExpr, "len(y)", n) }
	comp, await := "[x async for x in y]", "await g()"
	inF, inClass, inDef, inPlain := lenAt(0), lenAt(1), lenAt(2), lenAt(3)
	inLambda := siteAt(t, p, SiteExpr, "y", 2) // len(y) of the lambda's body
	tests := []struct {
		name string
		e    Edit
		want bool
	}{
		{"comprehension into the async body", Edit{Op: ReplaceText, Site: inF, Text: comp}, true},
		{"await into the async body", Edit{Op: ReplaceText, Site: inF, Text: await}, true},
		{"comprehension into a class body", Edit{Op: ReplaceText, Site: inClass, Text: comp}, false},
		{"await into a class body", Edit{Op: ReplaceText, Site: inClass, Text: await}, false},
		{"await into a lambda", Edit{Op: ReplaceText, Site: inLambda, Text: await}, false},
		{"comprehension into a nested def", Edit{Op: ReplaceText, Site: inDef, Text: comp}, false},
		{"await into a plain function", Edit{Op: ReplaceText, Site: inPlain, Text: await}, false},
		{"a string saying await anywhere", Edit{Op: ReplaceText, Site: inPlain, Text: `"await"`}, true},
		{"swap within the async body", Edit{Op: SwapText, Site: siteAt(t, p, SiteExpr, comp, 0), Site2: inF}, true},
		{"swap into a class body", Edit{Op: SwapText, Site: siteAt(t, p, SiteExpr, comp, 0), Site2: inClass}, false},
		{"swap with a plain function", Edit{Op: SwapText, Site: inPlain, Site2: siteAt(t, p, SiteExpr, await, 0)}, false},
		{"guard on await in the async body", Edit{Op: Guard, Stmt: stmtAt(t, p, "w = len(y)"), Donor: stmtAt(t, p, "w = len(y)"), Text: await}, true},
		{"guard on await in a plain function", Edit{Op: Guard, Stmt: stmtAt(t, p, "u = len(y)"), Donor: stmtAt(t, p, "u = len(y)"), Text: await}, false},
		{"insert text with await in a plain function", Edit{Op: InsertText, Stmt: stmtAt(t, p, "u = len(y)"), Text: "if not " + await + ": return 0"}, false},
		{"replace a line with await in a plain function", Edit{Op: ReplaceLine, Stmt: stmtAt(t, p, "u = len(y)"), Text: "u = " + await}, false},
		{"replace a line with await in the async body", Edit{Op: ReplaceLine, Stmt: stmtAt(t, p, "w = len(y)"), Text: "w = " + await}, true},
		{"copy adapted with await into a plain function", Edit{Op: InsertBefore, Stmt: stmtAt(t, p, "u = len(y)"), Donor: stmtAt(t, p, "w = len(y)"), Site: inF, Text: await}, false},
		{"copy adapted with await within the async body", Edit{Op: InsertAfter, Stmt: stmtAt(t, p, "acc = [x async for x in y]"), Donor: stmtAt(t, p, "w = len(y)"), Site: inF, Text: await}, true},
	}
	var srcs []string
	for _, tt := range tests {
		got := p.Resolve(Patch{tt.e})[0]
		if got != tt.want {
			t.Errorf("%s: applies %v, want %v", tt.name, got, tt.want)
		}
		if got {
			srcs = append(srcs, string(p.Render(Patch{tt.e})))
		}
	}
	for i, msg := range pythonCompile(t, srcs) {
		if msg != "" {
			t.Errorf("an edit kept does not compile: %s\n%s", msg, srcs[i])
		}
	}
}
