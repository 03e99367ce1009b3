package sched

import (
	"fmt"
	"strconv"
	"strings"

	"go.starlark.net/starlark"

	"weft.dev/weft/lang/weft/syntax"
)

// Cursors (Exo's cursors, seed 000 §2.3 "scheduling operations ... take
// cursors"): a Cursor is a Starlark value pointing at a statement, or at a
// block of consecutive statements, of one proc of the workspace. It
// survives rewrites by forwarding: every rewrite works on a copy of the
// proc made by cloneProcRec, which records the copy of each statement; a
// rewrite that replaces a statement by a new one (divide_loop's outer loop,
// reorder_loops' swapped loops, replace's call) or copies a body says so
// with forward/cloneFwd. After the rewrite commits, each cursor of the proc
// follows these maps; a cursor whose statement is gone is dead and using it
// is a W0954 diagnostic naming the rewrite that removed it.
//
// Navigation: p.find(pattern), p.find_loop(name), p.find_alloc(name),
// p.body(); c.body(), c.parent(), c.next(n), c.prev(n), c.expand(before,
// after), c.find(pattern), c[i] and len(c) on blocks. Every operation that
// takes a cursor pattern also takes a cursor; operations that take a block
// (stage_mem, replace, wrap_*) use a block cursor's length as count.

// Cursor is a statement or block of a proc as a Starlark value.
type Cursor struct {
	ws    *workspace
	decl  int         // index of the proc in ws.file.Decls
	stmt  syntax.Stmt // first statement, in the committed proc
	count int         // statements in the block (1: a statement)
	dead  string      // why the cursor no longer points anywhere
}

// newCursor registers a cursor so rewrites forward it.
func (w *workspace) newCursor(decl int, s syntax.Stmt, count int) *Cursor {
	c := &Cursor{ws: w, decl: decl, stmt: s, count: count}
	w.cursors = append(w.cursors, c)
	return c
}

// token is the pattern string an operation receives for a cursor: it
// cannot parse as a pattern (NUL), so find resolves it to the cursor.
func (c *Cursor) token() string {
	for i, x := range c.ws.cursors {
		if x == c {
			return "\x00" + strconv.Itoa(i) + "\x00" + c.describe()
		}
	}
	return "\x00?\x00"
}

// describe is the cursor's statement header, for messages.
func (c *Cursor) describe() string {
	if c.dead != "" || c.stmt == nil {
		return "<dead cursor>"
	}
	h := header(c.stmt)
	if c.count > 1 {
		h += fmt.Sprintf(" (and the %d statements after it)", c.count-1)
	}
	return h
}

// patternText is what messages show for a pattern or cursor token.
func patternText(pattern string) string {
	if strings.HasPrefix(pattern, "\x00") {
		if i := strings.IndexByte(pattern[1:], 0); i >= 0 {
			return "cursor " + pattern[i+2:]
		}
	}
	return pattern
}

// cursorOf resolves a cursor token; ok is false for ordinary patterns.
func (w *workspace) cursorOf(pattern string) (*Cursor, bool) {
	if !strings.HasPrefix(pattern, "\x00") {
		return nil, false
	}
	rest := pattern[1:]
	i := strings.IndexByte(rest, 0)
	if i < 0 {
		return nil, true
	}
	n, err := strconv.Atoi(rest[:i])
	if err != nil || n < 0 || n >= len(w.cursors) {
		return nil, true
	}
	return w.cursors[n], true
}

// locateIn finds statement s in proc p and returns its cursor path.
func locateIn(p *syntax.Proc, s syntax.Stmt) *cursor {
	var found *cursor
	var visit func(block *[]syntax.Stmt, path []level)
	visit = func(block *[]syntax.Stmt, path []level) {
		for i, x := range *block {
			if found != nil {
				return
			}
			here := append(append([]level{}, path...), level{block, i})
			if x == s {
				found = &cursor{path: here, stmt: x}
				return
			}
			switch x := x.(type) {
			case *syntax.For:
				visit(&x.Body, here)
			case *syntax.If:
				visit(&x.Then, here)
				visit(&x.Else, here)
			case *syntax.With:
				visit(&x.Body, here)
			}
		}
	}
	visit(&p.Body, nil)
	return found
}

// findCursor resolves a cursor token in p, the working copy of the proc
// being rewritten (or the committed proc outside a rewrite).
func (w *workspace) findCursor(p *syntax.Proc, pattern string) (*cursor, error) {
	c, _ := w.cursorOf(pattern)
	if c == nil {
		return nil, errorf(CodeNoMatch, "unknown cursor")
	}
	if c.dead != "" {
		return nil, errorf(CodeNoMatch, "the cursor no longer points at a statement: %s", c.dead)
	}
	if d, ok := w.file.Decls[c.decl].(*syntax.Proc); !ok || (d != p && w.cmap == nil) {
		return nil, errorf(CodeNoMatch, "the cursor points into proc %s, not %s", w.procName(c.decl), p.Name.Name)
	}
	s := c.stmt
	if w.cmap != nil {
		if w.cdecl != c.decl {
			return nil, errorf(CodeNoMatch, "the cursor points into proc %s, not %s", w.procName(c.decl), p.Name.Name)
		}
		s = w.cmap[s]
	}
	cur := locateIn(p, s)
	if cur == nil {
		return nil, errorf(CodeNoMatch, "the cursor's statement is not in proc %s", p.Name.Name)
	}
	return cur, nil
}

func (w *workspace) procName(decl int) string {
	if d, ok := w.file.Decls[decl].(*syntax.Proc); ok {
		return d.Name.Name
	}
	return "?"
}

// forward records that statement old of the working copy is now new (a
// rewrite that rebuilt it); cursors at old move to new.
func (w *workspace) forward(old, new syntax.Stmt) {
	if w.fwd != nil && old != nil && new != nil {
		w.fwd[old] = new
	}
}

// cloneFwd copies statements of the working copy for a rewrite that moves
// them into a new place; cursors into them follow the copies.
func (w *workspace) cloneFwd(ss []syntax.Stmt) []syntax.Stmt {
	if w.fwd == nil {
		return cloneStmts(ss)
	}
	rec := map[syntax.Stmt]syntax.Stmt{}
	out := cloneStmtsRec(ss, rec)
	for k, v := range rec {
		if _, seen := w.fwd[k]; !seen {
			w.fwd[k] = v
		}
	}
	return out
}

// forwardCursors moves the cursors of proc decl after a committed rewrite:
// cmap maps the old proc's statements to the working copy, fwd the working
// copy's rebuilt statements to their replacements.
func (w *workspace) forwardCursors(decl int, q *syntax.Proc, cmap, fwd map[syntax.Stmt]syntax.Stmt, why string) {
	present := map[syntax.Stmt]bool{}
	walkStmts(q.Body, func(s syntax.Stmt) { present[s] = true })
	follow := func(s syntax.Stmt) syntax.Stmt {
		x := cmap[s]
		for k := 0; k < 64 && x != nil; k++ {
			if present[x] {
				return x
			}
			x = fwd[x]
		}
		return nil
	}
	for _, c := range w.cursors {
		if c.decl != decl || c.dead != "" {
			continue
		}
		var last syntax.Stmt
		if c.count > 1 {
			if cur := locateIn(w.file.Decls[decl].(*syntax.Proc), c.stmt); cur != nil && cur.idx()+c.count <= len(*cur.block()) {
				last = (*cur.block())[cur.idx()+c.count-1]
			}
		}
		n := follow(c.stmt)
		if n == nil {
			c.dead = "its statement was removed by " + why
			continue
		}
		c.stmt = n
		if c.count > 1 {
			nl := follow(last)
			nc := locateIn(q, n)
			lc := locateIn(q, nl)
			if nl == nil || lc == nil || nc.block() != lc.block() || lc.idx() < nc.idx() {
				c.count = 1
			} else {
				c.count = lc.idx() - nc.idx() + 1
			}
		}
	}
}

// Starlark interface.

func (c *Cursor) String() string {
	if c.dead != "" {
		return "<cursor: " + c.dead + ">"
	}
	return "<cursor " + c.describe() + ">"
}
func (c *Cursor) Type() string         { return "cursor" }
func (c *Cursor) Freeze()              {}
func (c *Cursor) Truth() starlark.Bool { return c.dead == "" }
func (c *Cursor) Hash() (uint32, error) {
	return 0, fmt.Errorf("unhashable type: cursor")
}

// Len and Index make a block cursor indexable: c[i] is its i-th statement.
func (c *Cursor) Len() int { return c.count }
func (c *Cursor) Index(i int) starlark.Value {
	cur, err := c.here()
	if err != nil || i < 0 || i >= c.count {
		return starlark.None
	}
	return c.ws.newCursor(c.decl, (*cur.block())[cur.idx()+i], 1)
}

// here locates the cursor in its committed proc.
func (c *Cursor) here() (*cursor, error) {
	if c.dead != "" {
		return nil, errorf(CodeNoMatch, "the cursor no longer points at a statement: %s", c.dead)
	}
	p, ok := c.ws.file.Decls[c.decl].(*syntax.Proc)
	if !ok {
		return nil, errorf(CodeNoMatch, "the cursor's proc is gone")
	}
	cur := locateIn(p, c.stmt)
	if cur == nil {
		return nil, errorf(CodeNoMatch, "the cursor's statement is not in proc %s", p.Name.Name)
	}
	return cur, nil
}

func (c *Cursor) AttrNames() []string {
	return []string{"body", "expand", "find", "is_valid", "kind", "name", "next", "parent", "prev", "proc"}
}

func (c *Cursor) Attr(name string) (starlark.Value, error) {
	w := c.ws
	method := func(fn func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)) starlark.Value {
		return starlark.NewBuiltin("cursor."+name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			v, err := fn(args, kwargs)
			if se, ok := err.(*schedError); ok {
				return nil, &opError{"cursor." + name, se}
			}
			if err != nil {
				return nil, &opError{"cursor." + name, errorf(CodeArgs, "cursor.%s: %v", name, err)}
			}
			return v, nil
		})
	}
	switch name {
	case "is_valid":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackArgs("is_valid", args, kwargs); err != nil {
				return nil, err
			}
			return starlark.Bool(c.dead == ""), nil
		}), nil
	case "kind":
		if c.dead != "" {
			return starlark.String("dead"), nil
		}
		return starlark.String(stmtKindWord(c.stmt, c.count)), nil
	case "name":
		if c.dead != "" {
			return starlark.None, nil
		}
		switch s := c.stmt.(type) {
		case *syntax.For:
			return starlark.String(s.Var.Name), nil
		case *syntax.Alloc:
			return starlark.String(s.Name.Name), nil
		}
		return starlark.None, nil
	case "proc":
		return &Proc{ws: w, name: w.procName(c.decl)}, nil
	case "body":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackArgs("body", args, kwargs); err != nil {
				return nil, err
			}
			if _, err := c.here(); err != nil {
				return nil, err
			}
			var body []syntax.Stmt
			switch s := c.stmt.(type) {
			case *syntax.For:
				body = s.Body
			case *syntax.With:
				body = s.Body
			case *syntax.If:
				body = s.Then
			default:
				return nil, errorf(CodeNoMatch, "cursor.body: %s has no body", stmtKind(c.stmt)).at(c.stmt, "this statement")
			}
			if len(body) == 0 {
				return nil, errorf(CodeNoMatch, "cursor.body: the body is empty").at(c.stmt, "this statement")
			}
			return w.newCursor(c.decl, body[0], len(body)), nil
		}), nil
	case "parent":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if err := starlark.UnpackArgs("parent", args, kwargs); err != nil {
				return nil, err
			}
			cur, err := c.here()
			if err != nil {
				return nil, err
			}
			enc := cur.enclosing()
			if len(enc) == 0 {
				return nil, errorf(CodeNoMatch, "cursor.parent: %s is at the top level of the proc", stmtKind(c.stmt)).at(c.stmt, "this statement")
			}
			return w.newCursor(c.decl, enc[len(enc)-1], 1), nil
		}), nil
	case "next", "prev":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			n := 1
			if err := starlark.UnpackArgs(name, args, kwargs, "n?", &n); err != nil {
				return nil, err
			}
			cur, err := c.here()
			if err != nil {
				return nil, err
			}
			i := cur.idx() + c.count - 1 + n
			if name == "prev" {
				i = cur.idx() - n
			}
			blk := *cur.block()
			if i < 0 || i >= len(blk) {
				return nil, errorf(CodeNoMatch, "cursor.%s(%d): the block has no statement there (it has %d, this is #%d)", name, n, len(blk), cur.idx()).at(c.stmt, "this statement")
			}
			return w.newCursor(c.decl, blk[i], 1), nil
		}), nil
	case "expand":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			before, after := 0, 0
			if err := starlark.UnpackArgs("expand", args, kwargs, "before?", &before, "after?", &after); err != nil {
				return nil, err
			}
			cur, err := c.here()
			if err != nil {
				return nil, err
			}
			blk := *cur.block()
			lo, hi := cur.idx()-before, cur.idx()+c.count+after
			if before < 0 || after < 0 || lo < 0 || hi > len(blk) {
				return nil, errorf(CodeNoMatch, "cursor.expand(%d, %d): the block around the cursor has only %d statements before and %d after it", before, after, cur.idx(), len(blk)-cur.idx()-c.count).at(c.stmt, "this statement")
			}
			return w.newCursor(c.decl, blk[lo], hi-lo), nil
		}), nil
	case "find":
		return method(func(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			var pattern string
			if err := starlark.UnpackArgs("find", args, kwargs, "pattern", &pattern); err != nil {
				return nil, err
			}
			cur, err := c.here()
			if err != nil {
				return nil, err
			}
			blk := (*cur.block())[cur.idx() : cur.idx()+c.count]
			sub := &syntax.Proc{Name: &syntax.Name{Name: w.procName(c.decl)}, Body: blk}
			found, err := find(sub, pattern)
			if err != nil {
				return nil, err
			}
			return w.newCursor(c.decl, found.stmt, 1), nil
		}), nil
	}
	return nil, nil
}

func stmtKindWord(s syntax.Stmt, count int) string {
	if count > 1 {
		return "block"
	}
	switch s := s.(type) {
	case *syntax.Alloc:
		return "alloc"
	case *syntax.Assign:
		if s.Op == "+=" {
			return "reduce"
		}
		return "assign"
	case *syntax.For:
		return "loop"
	case *syntax.If:
		return "if"
	case *syntax.With:
		return "with"
	case *syntax.CallStmt:
		return "call"
	case *syntax.Fence, *syntax.Arrive, *syntax.Await:
		return "sync"
	case *syntax.Assert:
		return "assert"
	case *syntax.Pass:
		return "pass"
	}
	return "stmt"
}

// procFind implements p.find(pattern), p.find_loop(name),
// p.find_alloc(name) and p.body().
func (p *Proc) method(name string) starlark.Value {
	w := p.ws
	return starlark.NewBuiltin("proc."+name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		d, i, err := w.proc(p.name)
		if err != nil {
			return nil, &opError{"proc." + name, err.(*schedError)}
		}
		if name == "body" {
			if err := starlark.UnpackArgs(name, args, kwargs); err != nil {
				return nil, &opError{"proc.body", errorf(CodeArgs, "proc.body: %v", err)}
			}
			return w.newCursor(i, d.Body[0], len(d.Body)), nil
		}
		var text string
		if err := starlark.UnpackArgs(name, args, kwargs, "pattern", &text); err != nil {
			return nil, &opError{"proc." + name, errorf(CodeArgs, "proc.%s: %v", name, err)}
		}
		pattern := text
		switch name {
		case "find_loop":
			if !strings.HasPrefix(strings.TrimSpace(text), "for ") {
				pattern = "for " + text + " in _"
				if i := strings.LastIndexByte(text, '#'); i >= 0 {
					pattern = "for " + strings.TrimSpace(text[:i]) + " in _ " + text[i:]
				}
			}
		case "find_alloc":
			pattern = text + ": _"
			if i := strings.LastIndexByte(text, '#'); i >= 0 {
				pattern = strings.TrimSpace(text[:i]) + ": _ " + text[i:]
			}
		}
		c, err := find(d, pattern)
		if err != nil {
			return nil, &opError{"proc." + name, err.(*schedError)}
		}
		switch name {
		case "find_loop":
			if _, ok := c.stmt.(*syntax.For); !ok {
				return nil, &opError{"proc.find_loop", errorf(CodeNoMatch, "proc.find_loop: %q matches %s, not a loop", text, stmtKind(c.stmt)).at(c.stmt, "this statement")}
			}
		case "find_alloc":
			if _, ok := c.stmt.(*syntax.Alloc); !ok {
				return nil, &opError{"proc.find_alloc", errorf(CodeNoMatch, "proc.find_alloc: %q matches %s, not an allocation", text, stmtKind(c.stmt)).at(c.stmt, "this statement")}
			}
		}
		return w.newCursor(i, c.stmt, 1), nil
	})
}
