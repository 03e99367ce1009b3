package sched

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// schedError is a failed precondition or a bad argument: a code, a message
// and notes at the Weft statements involved. The script binding turns it
// into a diagnostic at the script position of the failing call.
type schedError struct {
	code  string
	msg   string
	notes []diag.Note
}

func (e *schedError) Error() string { return e.msg }

func errorf(code, format string, args ...any) *schedError {
	return &schedError{code: code, msg: fmt.Sprintf(format, args...)}
}

// at attaches a note at a Weft position (skipped for nodes the scheduler
// made, which have none).
func (e *schedError) at(n syntax.Node, format string, args ...any) *schedError {
	if n != nil {
		if p := n.Pos(); p.IsValid() {
			e.notes = append(e.notes, diag.Note{Pos: p, Message: fmt.Sprintf(format, args...)})
		}
	}
	return e
}

// workspace is the file being scheduled.
type workspace struct {
	file   *syntax.File
	lib    *lib.Library
	consts map[string]int64
	// reassoc lists the rewrites that let reductions commute (results may
	// differ by floating-point reassociation).
	reassoc []string
	// Cursors (cursor.go): every cursor made by the script; during a
	// rewrite, cmap maps the committed proc cdecl's statements to the
	// working copy and fwd the working copy's rebuilt statements to their
	// replacements.
	cursors []*Cursor
	cmap    map[syntax.Stmt]syntax.Stmt
	fwd     map[syntax.Stmt]syntax.Stmt
	cdecl   int
	// Equivalence classes of procs by declaration index (procs.go), and
	// the procs a rewrite creates, appended when it commits.
	eqv          map[int]int
	nextClass    int
	pendingProcs []*syntax.Proc
}

func newWorkspace(f *syntax.File, l *lib.Library) *workspace {
	w := &workspace{file: f, lib: l, consts: map[string]int64{}}
	for _, d := range f.Decls {
		g, ok := d.(*syntax.Global)
		if !ok {
			continue
		}
		vals := g.Values
		if len(vals) == 1 && len(g.Names) > 1 {
			if t, ok := vals[0].(*syntax.Tuple); ok {
				vals = t.Elems
			}
		}
		if len(vals) != len(g.Names) {
			continue
		}
		for i, n := range g.Names {
			if l, ok := toLin(vals[i], constEnv(w.consts)); ok && l.isConst() {
				w.consts[n.Name] = l.Const
			}
		}
	}
	return w
}

type constEnv map[string]int64

func (c constEnv) isControl(string) bool { return false }
func (c constEnv) constValue(n string) (int64, bool) {
	v, ok := c[n]
	return v, ok
}

// proc returns the proc declaration named name.
func (w *workspace) proc(name string) (*syntax.Proc, int, error) {
	var names []string
	for i, d := range w.file.Decls {
		if p, ok := d.(*syntax.Proc); ok {
			if p.Name.Name == name {
				return p, i, nil
			}
			names = append(names, p.Name.Name)
		}
	}
	sort.Strings(names)
	return nil, -1, errorf(CodeProc, "no proc %s in %s (procs: %s)", name, w.file.Name, strings.Join(names, ", "))
}

// nameInfo is what a name in a proc denotes.
type nameInfo struct {
	kind string // "size", "index", "stride", "bool", "iter", "data", "barrier", "window"
	typ  *syntax.Type
	decl syntax.Node
}

// procInfo resolves the names of one proc. Weft has no shadowing within a
// proc (package check rejects a redeclaration), so one map serves the
// whole body.
type procInfo struct {
	ws    *workspace
	proc  *syntax.Proc
	names map[string]*nameInfo
	// fold: fold integer globals to their values (proofs); off when
	// normalizing text, so `cuda_threads(0, Mw)` keeps its name.
	fold bool
}

func (w *workspace) info(p *syntax.Proc) *procInfo {
	pi := &procInfo{ws: w, proc: p, names: map[string]*nameInfo{}, fold: true}
	for _, prm := range p.Params {
		k := "data"
		switch {
		case prm.Type == nil || prm.Type.Elem == nil:
		case prm.Type.Elem.Name == "size", prm.Type.Elem.Name == "index", prm.Type.Elem.Name == "stride", prm.Type.Elem.Name == "bool":
			k = prm.Type.Elem.Name
		case prm.Type.Elem.Name == "barrier":
			k = "barrier"
		}
		pi.names[prm.Name.Name] = &nameInfo{kind: k, typ: prm.Type, decl: prm}
	}
	walkStmts(p.Body, func(s syntax.Stmt) {
		switch s := s.(type) {
		case *syntax.For:
			pi.names[s.Var.Name] = &nameInfo{kind: "iter", decl: s}
		case *syntax.Alloc:
			k := "data"
			if s.Type != nil && s.Type.Elem != nil && s.Type.Elem.Name == "barrier" {
				k = "barrier"
			}
			pi.names[s.Name.Name] = &nameInfo{kind: k, typ: s.Type, decl: s}
		case *syntax.Assign:
			if n, ok := s.LHS.(*syntax.Name); ok {
				if _, known := pi.names[n.Name]; !known && isWindowRHS(s) {
					pi.names[n.Name] = &nameInfo{kind: "window", decl: s}
				}
			}
		}
	})
	return pi
}

// isWindowRHS reports whether an assignment to a fresh name is a window
// statement (`x = y[0:8, i]`, optionally `@ Mem`).
func isWindowRHS(s *syntax.Assign) bool {
	if s.Op != "=" {
		return false
	}
	if s.Mem != nil {
		return true
	}
	switch r := s.RHS.(type) {
	case *syntax.Index:
		for _, i := range r.Indices {
			if _, ok := i.(*syntax.Slice); ok {
				return true
			}
		}
	}
	return false
}

func (pi *procInfo) isControl(n string) bool {
	if ni := pi.names[n]; ni != nil {
		switch ni.kind {
		case "size", "index", "stride", "iter":
			return true
		}
		return false
	}
	_, isConst := pi.ws.consts[n]
	return isConst && !pi.fold
}

func (pi *procInfo) constValue(n string) (int64, bool) {
	if !pi.fold || pi.names[n] != nil {
		return 0, false
	}
	v, ok := pi.ws.consts[n]
	return v, ok
}

func (pi *procInfo) isData(n string) bool {
	ni := pi.names[n]
	return ni != nil && (ni.kind == "data" || ni.kind == "window")
}

// textual returns a copy of pi that keeps integer globals as names.
func (pi *procInfo) textual() *procInfo {
	c := *pi
	c.fold = false
	return &c
}

// allNames is every identifier of the file's proc, its params, the
// globals and the other procs: a new name must avoid all of them.
func (pi *procInfo) allNames() map[string]bool {
	m := map[string]bool{}
	namesUsed(pi.proc.Body, m)
	for n := range pi.names {
		m[n] = true
	}
	for n := range pi.ws.consts {
		m[n] = true
	}
	for _, d := range pi.ws.file.Decls {
		switch d := d.(type) {
		case *syntax.Proc:
			m[d.Name.Name] = true
		case *syntax.Global:
			for _, n := range d.Names {
				m[n.Name] = true
			}
		}
	}
	return m
}

// fresh checks that name can be introduced.
func (pi *procInfo) fresh(name string) error {
	if !isIdent(name) {
		return errorf(CodeArgs, "%q is not a valid name", name)
	}
	if pi.allNames()[name] || pi.ws.lib.Instr(name) != nil || pi.ws.lib.Memories[name] != nil || reserved[name] {
		return errorf(CodeNameClash, "the name %s is already used in proc %s", name, pi.proc.Name.Name)
	}
	return nil
}

// freshLike returns base, or base with a numeric suffix, unused so far and
// not in taken.
func (pi *procInfo) freshLike(base string, taken map[string]bool) string {
	all := pi.allNames()
	for k := 0; ; k++ {
		n := base
		if k > 0 {
			n = fmt.Sprintf("%s%d", base, k)
		}
		if !all[n] && !taken[n] && !reserved[n] {
			taken[n] = true
			return n
		}
	}
}

var reserved = map[string]bool{
	"for": true, "in": true, "if": true, "else": true, "elif": true, "with": true, "def": true, "assert": true,
	"and": true, "or": true, "not": true, "pass": true, "free": true, "True": true, "False": true,
	"seq": true, "par": true, "cuda_tasks": true, "cuda_threads": true, "size": true, "index": true,
	"stride": true, "bool": true, "barrier": true, "_": true,
}

func isIdent(s string) bool {
	for i, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

// level is one block on the path from the proc body to a statement.
type level struct {
	block *[]syntax.Stmt
	idx   int
}

// cursor is a statement found by a pattern: its block and index, and the
// path of enclosing blocks (path[0] is the proc body; the last level is
// the statement's own block).
type cursor struct {
	path []level
	stmt syntax.Stmt
}

func (c *cursor) block() *[]syntax.Stmt { return c.path[len(c.path)-1].block }
func (c *cursor) idx() int              { return c.path[len(c.path)-1].idx }

// enclosing returns the statements around the cursor, outermost first.
func (c *cursor) enclosing() []syntax.Stmt {
	var out []syntax.Stmt
	for _, l := range c.path[:len(c.path)-1] {
		out = append(out, (*l.block)[l.idx])
	}
	return out
}

// loops returns the enclosing loops, outermost first.
func (c *cursor) loops() []*syntax.For {
	var out []*syntax.For
	for _, s := range c.enclosing() {
		if f, ok := s.(*syntax.For); ok {
			out = append(out, f)
		}
	}
	return out
}

// find returns the statement the pattern or cursor token selects in p.
func (w *workspace) find(p *syntax.Proc, pattern string) (*cursor, error) {
	if _, ok := w.cursorOf(pattern); ok {
		return w.findCursor(p, pattern)
	}
	return find(p, pattern)
}

// find returns the statement the pattern selects in p.
func find(p *syntax.Proc, pattern string) (*cursor, error) {
	pat, err := ParsePattern(pattern)
	if err != nil {
		return nil, errorf(CodePattern, "pattern %q: %v", pattern, err)
	}
	var found []*cursor
	var visit func(block *[]syntax.Stmt, path []level)
	visit = func(block *[]syntax.Stmt, path []level) {
		for i, s := range *block {
			here := append(append([]level{}, path...), level{block, i})
			if pat.Match(s) {
				found = append(found, &cursor{path: here, stmt: s})
			}
			switch s := s.(type) {
			case *syntax.For:
				visit(&s.Body, here)
			case *syntax.If:
				visit(&s.Then, here)
				visit(&s.Else, here)
			case *syntax.With:
				visit(&s.Body, here)
			}
		}
	}
	visit(&p.Body, nil)
	if pat.Nth >= len(found) {
		if len(found) == 0 {
			return nil, errorf(CodeNoMatch, "pattern %q matches no statement in proc %s", pattern, p.Name.Name)
		}
		return nil, errorf(CodeNoMatch, "pattern %q matches %d statements in proc %s; #%d is out of range", pattern, len(found), p.Name.Name, pat.Nth)
	}
	return found[pat.Nth], nil
}

// findLoop is find for operations that need a loop.
func (w *workspace) findLoop(p *syntax.Proc, pattern, op string) (*cursor, *syntax.For, error) {
	c, err := w.find(p, pattern)
	if err != nil {
		return nil, nil, err
	}
	f, ok := c.stmt.(*syntax.For)
	if !ok {
		return nil, nil, errorf(CodeNoMatch, "%s: %s matches %s, not a loop", op, quotePattern(pattern), stmtKind(c.stmt)).at(c.stmt, "this statement")
	}
	return c, f, nil
}

func stmtKind(s syntax.Stmt) string {
	switch s := s.(type) {
	case *syntax.Alloc:
		return "an allocation"
	case *syntax.Assign:
		if s.Op == "+=" {
			return "a reduce"
		}
		return "an assignment"
	case *syntax.For:
		return "a loop"
	case *syntax.If:
		return "an if statement"
	case *syntax.With:
		return "a with block"
	case *syntax.CallStmt:
		return "a call"
	case *syntax.Fence, *syntax.Arrive, *syntax.Await:
		return "a sync statement"
	case *syntax.Assert:
		return "an assert"
	}
	return "a statement"
}

// quotePattern quotes a pattern for messages, or names a cursor.
func quotePattern(pattern string) string {
	if t := patternText(pattern); t != pattern {
		return t
	}
	return "pattern " + strconv.Quote(pattern)
}

// parseExpr parses one Weft expression given as script text.
func parseExpr(text string) (syntax.Expr, error) {
	if strings.ContainsAny(text, "\n\r#") || strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("%q is not a one-line Weft expression", text)
	}
	src := "def __sched():\n    __sched_e = " + text + "\n"
	var errs diag.List
	f := syntax.Parse(diag.NewFile("<expr>", []byte(src)), &errs)
	if errs.HasErrors() || len(f.Decls) != 1 {
		return nil, fmt.Errorf("%q is not a Weft expression", text)
	}
	p, ok := f.Decls[0].(*syntax.Proc)
	if !ok || len(p.Body) != 1 {
		return nil, fmt.Errorf("%q is not a Weft expression", text)
	}
	a, ok := p.Body[0].(*syntax.Assign)
	if !ok || a.Op != "=" || a.Mem != nil {
		return nil, fmt.Errorf("%q is not a Weft expression", text)
	}
	// The expression's positions are in a scratch file; notes only ever
	// point at statements of the scheduled proc, never at it.
	return a.RHS, nil
}
