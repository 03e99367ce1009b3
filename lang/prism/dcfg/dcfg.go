package dcfg

import (
	"fmt"
	"sort"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/check"
	"weft.dev/weft/lang/prism/syntax"
)

// Node is a vertex of the data-control-flow graph: a partition, claim or
// async scope over thread-shared memory, or a statement that uses the
// memory directly (seed 001 §5).
type Node struct {
	Stmt  syntax.Stmt
	Root  *check.Var // the memory (shared allocation or pointer parameter)
	Read  bool
	Write bool
	Scope check.Persp // the threads that own the memory here
	Bars  []*check.Var
	// TMAOnly marks a region whose only writes are TMA loads bound to the
	// mbarriers in Bars: a reader needs those waits, not a barrier.
	TMAOnly bool
	id      int
}

// SyncPoint is an inferred synchronization: a barrier over Scope placed
// before statement Before, ordering the Preds against the nodes of Roots.
type SyncPoint struct {
	Before syntax.Stmt
	Scope  check.Persp
	Roots  []*check.Var
	Preds  []*Node
	Waits  []*check.Var // mbarriers whose phase the barrier waits for
	// Barrier is false when every parent is a TMA-only region: the waits
	// on its mbarriers order the accesses (seed 001 §5, async transfers
	// bound to their wait).
	Barrier bool
	// List and Index locate Before: List[Index] == Before.
	List  []syntax.Stmt
	Index int
}

// SplitPoint is a sync point lowered to a split barrier: every thread of
// the block arrives on a fresh mbarrier after its last use of the memory
// (arrive motion) and waits for the phase before its first use (wait
// motion). Arrive and wait sit in one list the whole block executes, so
// each thread arrives and waits exactly once per execution.
type SplitPoint struct {
	*SyncPoint
	Root       *check.Var
	ArriveList []syntax.Stmt
	ArriveAt   int // index in the list: before that statement
	// At the sync point itself every thread takes a snapshot of the phase
	// it will wait for; the waits then move down to the first use of the
	// memory on each path, into with scopes, split branches and ifs: a
	// thread that never uses the memory never waits (warp specialization).
	WaitAt []Position
	Seq    int // which compiler mbarrier
	// Roles, when not nil, restricts the barrier to the threads that
	// touch the memory in the loop whose previous iteration it orders
	// (roles.go): they arrive at Roles.At, and the waits are for the
	// phase of the previous iteration.
	Roles *RoleArrive
}

// Position is a place in a statement list: before List[At] (after the
// last statement when At == len(List)).
type Position struct {
	List []syntax.Stmt
	At   int
}

func (p Position) line() string {
	if p.At < len(p.List) {
		return fmt.Sprintf("line %d", p.List[p.At].Pos().Line())
	}
	return fmt.Sprintf("the end (line %d)", p.List[len(p.List)-1].Pos().Line())
}

// Kind is the CUDA form of the barrier.
func (s *SyncPoint) Kind(T int) string {
	switch {
	case !s.Barrier:
		return "none"
	case s.Scope.Level == check.Block && s.Scope.N == 1:
		return "__syncthreads"
	case s.Scope.Level == check.Thread && s.Scope.N == T && T > 0:
		return "__syncthreads"
	case s.Scope.Level == check.Thread && s.Scope.N == 32:
		return "__syncwarp"
	case s.Scope.Level == check.Thread && s.Scope.N == 1:
		return "none"
	case s.Scope.Level == check.Thread && s.Scope.N%32 == 0:
		return "bar.sync"
	}
	return "unsupported"
}

// Sync is the inferred synchronization of one function.
type Sync struct {
	Fn     *check.Func
	Nodes  []*Node
	Points []*SyncPoint
	// Before maps a statement to the sync points placed before it.
	Before map[syntax.Stmt][]*SyncPoint
	// Split holds the block-wide sync points of a kernel as split
	// barriers, one per memory, with their arrive and wait motion.
	Split []*SplitPoint
}

// pos records where a statement sits: its list, index and enclosing
// statement (nil at the function body; a *syntax.Case for split branches).
type pos struct {
	list   []syntax.Stmt
	index  int
	parent syntax.Node
}

type inferer struct {
	info   *check.Info
	fn     *check.Func
	where  map[syntax.Stmt]pos
	nodes  []*Node
	byStmt map[syntax.Stmt][]*Node
	points map[*Node]*SyncPoint // sync point required before node
	inside map[syntax.Stmt]map[*Node]bool
	errs   *diag.List
	bars   map[*check.Var]map[*check.Var]bool
}

type state map[*check.Var][]*Node

func (s state) clone() state {
	out := state{}
	for k, v := range s {
		out[k] = append([]*Node(nil), v...)
	}
	return out
}

func union(a, b state) state {
	out := a.clone()
	for k, v := range b {
		for _, n := range v {
			dup := false
			for _, m := range out[k] {
				if m == n {
					dup = true
				}
			}
			if !dup {
				out[k] = append(out[k], n)
			}
		}
	}
	return out
}

// Infer computes the sync points of fn. Barriers no CUDA primitive can
// express (across blocks) are reported as P0201 warnings.
func Infer(info *check.Info, fn *check.Func, errs *diag.List) *Sync {
	in := &inferer{info: info, fn: fn, where: map[syntax.Stmt]pos{}, byStmt: map[syntax.Stmt][]*Node{},
		points: map[*Node]*SyncPoint{}, inside: map[syntax.Stmt]map[*Node]bool{}, errs: errs}
	out := &Sync{Fn: fn, Before: map[syntax.Stmt][]*SyncPoint{}}
	if fn.Extern {
		return out
	}
	in.index(fn.Decl.Body, nil)
	in.walk(fn.Decl.Body, state{})
	out.Nodes = in.nodes
	// Place, hoist and merge.
	var pts []*SyncPoint
	for _, n := range in.nodes {
		sp := in.points[n]
		if sp == nil {
			continue
		}
		in.place(sp, n)
		in.hoist(sp)
		pts = append(pts, sp)
	}
	if fn.Global {
		out.Split = in.split(pts)
	}
	merged := map[syntax.Stmt][]*SyncPoint{}
	for _, sp := range pts {
		var into *SyncPoint
		for _, o := range merged[sp.Before] {
			if o.Scope == sp.Scope {
				into = o
			}
		}
		if into == nil {
			merged[sp.Before] = append(merged[sp.Before], sp)
			out.Points = append(out.Points, sp)
			continue
		}
		into.Barrier = into.Barrier || sp.Barrier
		into.Roots = appendVars(into.Roots, sp.Roots...)
		into.Preds = appendNodes(into.Preds, sp.Preds...)
		into.Waits = appendVars(into.Waits, sp.Waits...)
	}
	sort.SliceStable(out.Points, func(i, j int) bool {
		return out.Points[i].Before.Pos().Offset < out.Points[j].Before.Pos().Offset
	})
	for _, sp := range out.Points {
		sort.Slice(sp.Roots, func(i, j int) bool { return sp.Roots[i].ID < sp.Roots[j].ID })
		sort.Slice(sp.Waits, func(i, j int) bool { return sp.Waits[i].ID < sp.Waits[j].ID })
		out.Before[sp.Before] = append(out.Before[sp.Before], sp)
		if k := sp.Kind(fn.T); k == "unsupported" && errs != nil {
			errs.Warnf(sp.Before.Pos(), "P0201", "%s needs a barrier over %s (for %s), which no CUDA barrier spans; the generated code does not synchronize here", fn.Name, sp.Scope, VarNames(sp.Roots))
		}
	}
	return out
}

// VarNames lists the variables' names.
func VarNames(vs []*check.Var) string {
	var s []string
	for _, v := range vs {
		s = append(s, v.Name)
	}
	return strings.Join(s, ", ")
}

func appendVars(a []*check.Var, b ...*check.Var) []*check.Var {
	for _, v := range b {
		dup := false
		for _, w := range a {
			if w == v {
				dup = true
			}
		}
		if !dup {
			a = append(a, v)
		}
	}
	return a
}

func appendNodes(a []*Node, b ...*Node) []*Node {
	for _, v := range b {
		dup := false
		for _, w := range a {
			if w == v {
				dup = true
			}
		}
		if !dup {
			a = append(a, v)
		}
	}
	return a
}

// index records the position of every statement.
func (in *inferer) index(list []syntax.Stmt, parent syntax.Node) {
	for i, s := range list {
		in.where[s] = pos{list: list, index: i, parent: parent}
		switch s := s.(type) {
		case *syntax.WithStmt:
			in.index(s.Body, s)
		case *syntax.ForStmt:
			in.index(s.Body, s)
		case *syntax.WhileStmt:
			in.index(s.Body, s)
		case *syntax.IfStmt:
			in.index(s.Then, s)
			in.index(s.Else, s)
		case *syntax.MatchStmt:
			for _, c := range s.Cases {
				in.index(c.Body, c)
			}
		}
	}
}

func (in *inferer) newNode(s syntax.Stmt, root *check.Var, read, write bool, scope check.Persp) *Node {
	for _, n := range in.byStmt[s] {
		if n.Root == root && n.Scope == scope {
			n.Read = n.Read || read
			n.Write = n.Write || write
			return n
		}
	}
	n := &Node{Stmt: s, Root: root, Read: read, Write: write, Scope: scope, id: len(in.nodes)}
	in.nodes = append(in.nodes, n)
	in.byStmt[s] = append(in.byStmt[s], n)
	return n
}

// visit applies node n to the state: if a pending parent conflicts, n needs
// a sync point (seed 001 §5: a write parent, or a write after reads).
func (in *inferer) visit(n *Node, st state) {
	var preds []*Node
	for _, p := range st[n.Root] {
		if p == n && !(p.Read && p.Write) {
			// The same scope again (a loop's next iteration): writes by the
			// same partition race at worst ("last writer wins", §3.4.2).
			continue
		}
		if p.Write || n.Write {
			preds = append(preds, p)
		}
	}
	if len(preds) > 0 {
		sp := in.points[n]
		if sp == nil {
			sp = &SyncPoint{Roots: []*check.Var{n.Root}}
			in.points[n] = sp
		}
		sp.Preds = appendNodes(sp.Preds, preds...)
		for _, p := range preds {
			sp.Waits = appendVars(sp.Waits, p.Bars...)
			if !(p.TMAOnly && !p.Read && !n.Write) {
				sp.Barrier = true
			}
		}
		st[n.Root] = nil
	}
	st[n.Root] = append(st[n.Root], n)
}

// uses collects the thread-shared memory an expression touches.
type use struct {
	v     *check.Var
	write bool
}

func (in *inferer) exprUses(x syntax.Expr, out *[]use, write bool) {
	switch x := x.(type) {
	case *syntax.Ident:
		if v := in.info.Uses[x]; v != nil && v.Root != nil && v.Type != nil && v.Type.IsMemory() {
			*out = append(*out, use{v, write})
		}
	case *syntax.IndexExpr:
		in.exprUses(x.X, out, write)
		if x.Index != nil {
			in.exprUses(x.Index, out, false)
		}
	case *syntax.ParenExpr:
		in.exprUses(x.X, out, write)
	case *syntax.BinaryExpr:
		in.exprUses(x.X, out, false)
		in.exprUses(x.Y, out, false)
	case *syntax.UnaryExpr:
		in.exprUses(x.X, out, false)
	case *syntax.AttrExpr:
		in.exprUses(x.X, out, write)
	case *syntax.CondExpr:
		in.exprUses(x.Then, out, false)
		in.exprUses(x.Cond, out, false)
		in.exprUses(x.Else, out, false)
	case *syntax.ListExpr:
		for _, e := range x.Elts {
			in.exprUses(e, out, write)
		}
	case *syntax.BraceExpr:
		for _, e := range x.Elts {
			in.exprUses(e, out, false)
		}
	case *syntax.Call:
		ci := in.info.Calls[x]
		for i, a := range x.Args {
			w := false
			if ci != nil && ci.Func != nil && i < len(ci.Func.Params) {
				p := ci.Func.Params[i]
				w = p.Type.Kind == check.Pointer && !p.Type.Elem.Const
			}
			if ci != nil && (ci.Intrinsic == "cp.async" || ci.Intrinsic == "load_async") && i == 0 {
				w = true
			}
			in.exprUses(a, out, w)
		}
		for _, k := range x.Kwargs {
			in.exprUses(k.Value, out, k.Name.Name == "out")
		}
	}
}

// access turns the direct uses of statement s into nodes.
func (in *inferer) access(s syntax.Stmt, us []use, st state) {
	for _, u := range us {
		if u.v.Root == nil {
			continue
		}
		scope := u.v.Persp
		if u.v.Root.Kind == check.SharedAlloc && scope.Level != check.Block {
			scope = check.Persp{Level: check.Block, N: 1}
		}
		if scope.Level == check.Thread && scope.N == 1 {
			continue // private to one thread: program order suffices
		}
		n := in.newNode(s, u.v.Root, !u.write, u.write, scope)
		in.visit(n, st)
	}
}

func (in *inferer) walk(list []syntax.Stmt, st state) state {
	for _, s := range list {
		st = in.stmt(s, st)
	}
	return st
}

func (in *inferer) stmt(s syntax.Stmt, st state) state {
	var us []use
	switch s := s.(type) {
	case *syntax.DeclStmt:
		if s.Value != nil {
			in.exprUses(s.Value, &us, false)
		}
		in.access(s, us, st)
	case *syntax.AssignStmt:
		in.exprUses(s.LHS, &us, true)
		in.exprUses(s.RHS, &us, false)
		in.access(s, us, st)
	case *syntax.ExprStmt:
		in.exprUses(s.X, &us, false)
		in.access(s, us, st)
	case *syntax.ReturnStmt:
		if s.Value != nil {
			in.exprUses(s.Value, &us, false)
			in.access(s, us, st)
		}
	case *syntax.IfStmt:
		in.exprUses(s.Cond, &us, false)
		in.access(s, us, st)
		a := in.walk(s.Then, st.clone())
		b := in.walk(s.Else, st.clone())
		return union(a, b)
	case *syntax.ForStmt:
		for _, a := range s.Iter.Args {
			in.exprUses(a, &us, false)
		}
		in.access(s, us, st)
		return in.loop(s.Body, st)
	case *syntax.WhileStmt:
		in.exprUses(s.Cond, &us, false)
		in.access(s, us, st)
		return in.loop(s.Body, st)
	case *syntax.MatchStmt:
		out := state{}
		for _, c := range s.Cases {
			out = union(out, in.walk(c.Body, st.clone()))
		}
		return union(out, st)
	case *syntax.WithStmt:
		r := in.info.Regions[s]
		if r == nil || r.X == nil || r.Y == nil {
			return in.walk(s.Body, st)
		}
		for _, a := range s.Call.Args[1:] {
			in.exprUses(a, &us, false)
		}
		for _, k := range s.Call.Kwargs {
			in.exprUses(k.Value, &us, false)
		}
		in.access(s, us, st)
		root := r.X.Root
		scope := r.Code
		if r.X.Kind != check.SharedAlloc && root.Kind == check.SharedAlloc && scope.Level == check.Grid {
			scope = check.Persp{Level: check.Block, N: 1}
		}
		private := scope.Level == check.Thread && scope.N == 1
		var n *Node
		if !private {
			read, write := in.effects(r)
			n = in.newNode(s, root, read || !write, write, scope)
			n.Bars = appendVars(n.Bars, in.asyncBars(s.Body, root)...)
			n.TMAOnly = write && len(n.Bars) > 0 && !in.plainWrites(s.Body, root)
			in.visit(n, st)
		}
		saved := st[root]
		inner := st.clone()
		inner[root] = nil
		inner = in.walk(s.Body, inner)
		if n != nil {
			// The region stands for everything its body did to the memory.
			inner[root] = saved
		} else {
			inner[root] = union(state{root: saved}, state{root: inner[root]})[root]
		}
		return inner
	}
	return st
}

// effects says whether region r reads or writes its memory, counting the
// regions nested over its view (a partition whose view is handed to an
// async scope is written by the async copies).
func (in *inferer) effects(r *check.Region) (read, write bool) {
	read, write = r.Read, r.Write || r.Kind == "async"
	for _, r2 := range in.info.Regions {
		if r2.X != nil && r2.X == r.Y && r2 != r {
			rd, wr := in.effects(r2)
			read, write = read || rd, write || wr
		}
	}
	return read, write
}

// loop runs a loop body twice: the second pass sees the first pass's
// nodes as parents (the backedge).
func (in *inferer) loop(body []syntax.Stmt, st state) state {
	first := in.walk(body, st.clone())
	second := in.walk(body, union(st, first))
	return union(st, second)
}

// rootOf returns the memory an operand designates, or nil.
func (in *inferer) rootOf(x syntax.Expr) *check.Var {
	for {
		switch y := x.(type) {
		case *syntax.IndexExpr:
			x = y.X
			continue
		case *syntax.ParenExpr:
			x = y.X
			continue
		case *syntax.Ident:
			if v := in.info.Uses[y]; v != nil {
				return v.Root
			}
		}
		return nil
	}
}

// plainWrites reports whether list writes root other than by TMA loads.
func (in *inferer) plainWrites(list []syntax.Stmt, root *check.Var) bool {
	found := false
	walkStmts(list, func(s syntax.Stmt) {
		var us []use
		switch s := s.(type) {
		case *syntax.AssignStmt:
			if in.rootOf(s.LHS) == root {
				found = true
			}
		case *syntax.ExprStmt:
			if c, ok := s.X.(*syntax.Call); ok && syntax.FuncName(c.Fun) == "load_async" {
				return
			}
			in.exprUses(s.X, &us, false)
		case *syntax.DeclStmt:
			if s.Value != nil {
				in.exprUses(s.Value, &us, false)
			}
		}
		for _, u := range us {
			if u.write && u.v.Root == root {
				found = true
			}
		}
	})
	return found
}

// walkStmts calls f on every statement of list, nested ones included.
func walkStmts(list []syntax.Stmt, f func(syntax.Stmt)) {
	for _, s := range list {
		f(s)
		switch s := s.(type) {
		case *syntax.WithStmt:
			walkStmts(s.Body, f)
		case *syntax.ForStmt:
			walkStmts(s.Body, f)
		case *syntax.WhileStmt:
			walkStmts(s.Body, f)
		case *syntax.IfStmt:
			walkStmts(s.Then, f)
			walkStmts(s.Else, f)
		case *syntax.MatchStmt:
			for _, c := range s.Cases {
				walkStmts(c.Body, f)
			}
		}
	}
}

// asyncBars lists the mbarriers that TMA loads into root, in list, are
// bound to.
func (in *inferer) asyncBars(list []syntax.Stmt, root *check.Var) []*check.Var {
	var out []*check.Var
	var visit func(list []syntax.Stmt)
	visit = func(list []syntax.Stmt) {
		for _, s := range list {
			switch s := s.(type) {
			case *syntax.ExprStmt:
				if c, ok := s.X.(*syntax.Call); ok && syntax.FuncName(c.Fun) == "load_async" && len(c.Args) >= 3 && in.rootOf(c.Args[0]) == root {
					if id, ok := c.Args[2].(*syntax.Ident); ok && in.info.Uses[id] != nil {
						out = appendVars(out, in.info.Uses[id])
					}
				}
			case *syntax.WithStmt:
				visit(s.Body)
			case *syntax.ForStmt:
				visit(s.Body)
			case *syntax.WhileStmt:
				visit(s.Body)
			case *syntax.IfStmt:
				visit(s.Then)
				visit(s.Else)
			case *syntax.MatchStmt:
				for _, c := range s.Cases {
					visit(c.Body)
				}
			}
		}
	}
	visit(list)
	return out
}

// place puts sp before the statement of n, climbing to the nearest
// enclosing statement whose code perspective is the barrier's scope (or
// broader), so that every thread of the scope reaches it.
func (in *inferer) place(sp *SyncPoint, n *Node) {
	sp.Scope = n.Scope
	for _, p := range sp.Preds {
		if p.Scope.AtLeast(sp.Scope) && p.Scope != sp.Scope {
			sp.Scope = p.Scope
		}
	}
	s := n.Stmt
	for {
		code, ok := in.info.Code[s]
		if ok && code.AtLeast(sp.Scope) {
			break
		}
		w := in.where[s]
		var up syntax.Stmt
		switch p := w.parent.(type) {
		case *syntax.Case:
			for st, pw := range in.where {
				if m, ok := st.(*syntax.MatchStmt); ok {
					for _, c := range m.Cases {
						if c == p {
							up = st
						}
					}
				}
				_ = pw
			}
		case syntax.Stmt:
			up = p
		}
		if up == nil {
			break
		}
		s = up
	}
	sp.Before = s
	w := in.where[s]
	sp.List, sp.Index = w.list, w.index
}

// contains reports whether statement s (or its body) holds node n.
func (in *inferer) contains(list []syntax.Stmt, n *Node) bool {
	for _, s := range list {
		if n.Stmt == s {
			return true
		}
		var bodies [][]syntax.Stmt
		switch s := s.(type) {
		case *syntax.WithStmt:
			bodies = append(bodies, s.Body)
		case *syntax.ForStmt:
			bodies = append(bodies, s.Body)
		case *syntax.WhileStmt:
			bodies = append(bodies, s.Body)
		case *syntax.IfStmt:
			bodies = append(bodies, s.Then, s.Else)
		case *syntax.MatchStmt:
			for _, c := range s.Cases {
				bodies = append(bodies, c.Body)
			}
		}
		for _, b := range bodies {
			if in.contains(b, n) {
				return true
			}
		}
	}
	return false
}

// hoist moves sp up past statements that hold none of its parents: out of
// with scopes, ifs and loops (a loop only when its body holds no parent, so
// no backedge needs the barrier), never out of a split branch.
func (in *inferer) hoist(sp *SyncPoint) {
	for {
		before := sp.List[:sp.Index]
		for _, p := range sp.Preds {
			if in.contains(before, p) {
				return
			}
		}
		w := in.where[sp.Before]
		parent, ok := w.parent.(syntax.Stmt)
		if !ok || parent == nil {
			if sp.Index > 0 {
				// Move to the top of the function body is pointless; stay.
			}
			return
		}
		switch p := parent.(type) {
		case *syntax.ForStmt, *syntax.WhileStmt, *syntax.IfStmt:
			var body []syntax.Stmt
			switch p := p.(type) {
			case *syntax.ForStmt:
				body = p.Body
			case *syntax.WhileStmt:
				body = p.Body
			case *syntax.IfStmt:
				body = append(append(body, p.Then...), p.Else...)
			}
			for _, pr := range sp.Preds {
				if in.contains(body, pr) {
					return
				}
			}
		case *syntax.WithStmt:
		default:
			return
		}
		pw := in.where[parent]
		sp.Before, sp.List, sp.Index = parent, pw.list, pw.index
	}
}

// split turns the block-wide sync points of a kernel into split barriers
// with arrive motion (up to just after the last statement that touches the
// memory) and wait motion (down to just before the first one, into with
// scopes the whole block runs). Points that a jump (break, continue,
// return) separates from their motion, and points over other scopes, keep
// their full barrier.
func (in *inferer) split(pts []*SyncPoint) []*SplitPoint {
	var out []*SplitPoint
	seen := map[string]bool{}
	for _, sp := range pts {
		if sp.Barrier && sp.Kind(in.fn.T) != "__syncthreads" {
			continue
		}
		root := sp.Roots[0]
		key := fmt.Sprintf("%p/%d", sp.Before, root.ID)
		if seen[key] {
			continue
		}
		seen[key] = true
		// A copy: merging the full-barrier points later must not change it.
		cp := *sp
		cp.Roots = append([]*check.Var(nil), sp.Roots...)
		cp.Waits = append([]*check.Var(nil), sp.Waits...)
		cp.Preds = append([]*Node(nil), sp.Preds...)
		p := &SplitPoint{SyncPoint: &cp, Root: root, ArriveList: sp.List, ArriveAt: sp.Index}
		if sp.Barrier {
			j := sp.Index
			for j > 0 && !in.touches(sp.List[j-1], root) {
				j--
			}
			if !hasJump(sp.List[j:sp.Index]) {
				p.ArriveAt = j
			}
		}
		p.WaitAt = in.waitMotion(sp.List, sp.Index, root)
		p.Roles = in.roleArrive(p)
		p.Seq = len(out)
		out = append(out, p)
	}
	return out
}

// waitMotion returns where the waits for root go when moved down from
// list[k]: before the first statement touching root, descending into the
// bodies of with scopes over other memory and into every branch of a split
// or an if that touches root. Loops stop the motion.
func (in *inferer) waitMotion(list []syntax.Stmt, k int, root *check.Var) []Position {
	for k < len(list) && !in.touches(list[k], root) {
		k++
	}
	if k == len(list) {
		return nil // no use on this path
	}
	stop := []Position{{list, k}}
	switch s := list[k].(type) {
	case *syntax.WithStmt:
		// Opening a scope (even one over root) touches no memory; its
		// offset or indexing function might.
		if in.info.Regions[s] == nil || in.touchesHeader(s, root) {
			return stop
		}
		if w := in.waitMotion(s.Body, 0, root); len(w) > 0 {
			return w
		}
	case *syntax.MatchStmt:
		var out []Position
		for _, c := range s.Cases {
			out = append(out, in.waitMotion(c.Body, 0, root)...)
		}
		if len(out) > 0 {
			return out
		}
	case *syntax.IfStmt:
		if in.touchesExpr(s.Cond, root) {
			return stop
		}
		out := append(in.waitMotion(s.Then, 0, root), in.waitMotion(s.Else, 0, root)...)
		if len(out) > 0 {
			return out
		}
	}
	return stop
}

// touchesHeader reports whether the with statement's arguments, other than
// the memory it narrows, read root.
func (in *inferer) touchesHeader(s *syntax.WithStmt, root *check.Var) bool {
	for i, a := range s.Call.Args {
		if i > 0 && in.touchesExpr(a, root) {
			return true
		}
	}
	for _, k := range s.Call.Kwargs {
		if in.touchesExpr(k.Value, root) {
			return true
		}
	}
	return false
}

func (in *inferer) touchesExpr(x syntax.Expr, root *check.Var) bool {
	return in.touches(&syntax.ExprStmt{X: x}, root)
}

// touches reports whether s names memory whose root is root.
func (in *inferer) touches(s syntax.Stmt, root *check.Var) bool {
	found := false
	var expr func(x syntax.Expr)
	expr = func(x syntax.Expr) {
		switch x := x.(type) {
		case *syntax.Ident:
			if v := in.info.Uses[x]; v != nil && (v.Root == root || in.barRoots()[v][root]) {
				// An mbarrier that TMA loads into root complete on stands
				// for root: arming it (expect_bytes) must follow the wait
				// that frees root.
				found = true
			}
		case *syntax.IndexExpr:
			expr(x.X)
			if x.Index != nil {
				expr(x.Index)
			}
		case *syntax.ParenExpr:
			expr(x.X)
		case *syntax.BinaryExpr:
			expr(x.X)
			expr(x.Y)
		case *syntax.UnaryExpr:
			expr(x.X)
		case *syntax.AttrExpr:
			expr(x.X)
		case *syntax.CondExpr:
			expr(x.Then)
			expr(x.Cond)
			expr(x.Else)
		case *syntax.ListExpr:
			for _, e := range x.Elts {
				expr(e)
			}
		case *syntax.BraceExpr:
			for _, e := range x.Elts {
				expr(e)
			}
		case *syntax.Call:
			for _, a := range x.Args {
				expr(a)
			}
			for _, k := range x.Kwargs {
				expr(k.Value)
			}
		case *syntax.LambdaExpr:
			expr(x.Body)
		}
	}
	walkStmts([]syntax.Stmt{s}, func(s syntax.Stmt) {
		switch s := s.(type) {
		case *syntax.DeclStmt:
			if v := in.info.Uses[s.Name]; v != nil && in.barRoots()[v][root] {
				found = true
			}
			if s.Value != nil {
				expr(s.Value)
			}
		case *syntax.AssignStmt:
			expr(s.LHS)
			expr(s.RHS)
		case *syntax.ExprStmt:
			expr(s.X)
		case *syntax.ReturnStmt:
			if s.Value != nil {
				expr(s.Value)
			}
		case *syntax.IfStmt:
			expr(s.Cond)
		case *syntax.WhileStmt:
			expr(s.Cond)
		case *syntax.ForStmt:
			expr(s.Iter)
		case *syntax.WithStmt:
			expr(s.Call)
		}
	})
	return found
}

// barRoots maps each mbarrier to the memory TMA loads bound to it write.
func (in *inferer) barRoots() map[*check.Var]map[*check.Var]bool {
	if in.bars != nil {
		return in.bars
	}
	in.bars = map[*check.Var]map[*check.Var]bool{}
	walkStmts(in.fn.Decl.Body, func(s syntax.Stmt) {
		es, ok := s.(*syntax.ExprStmt)
		if !ok {
			return
		}
		c, ok := es.X.(*syntax.Call)
		if !ok || syntax.FuncName(c.Fun) != "load_async" || len(c.Args) < 3 {
			return
		}
		id, ok := c.Args[2].(*syntax.Ident)
		if !ok || in.info.Uses[id] == nil {
			return
		}
		b := in.info.Uses[id]
		if r := in.rootOf(c.Args[0]); r != nil {
			if in.bars[b] == nil {
				in.bars[b] = map[*check.Var]bool{}
			}
			in.bars[b][r] = true
		}
	})
	return in.bars
}

// hasJump reports whether list holds a break, continue or return.
func hasJump(list []syntax.Stmt) bool {
	found := false
	walkStmts(list, func(s syntax.Stmt) {
		switch s.(type) {
		case *syntax.BranchStmt, *syntax.ReturnStmt:
			found = true
		}
	})
	return found
}

// DescribeSplit renders the split barriers: where each arrives and waits.
func (s *Sync) DescribeSplit() string {
	var b strings.Builder
	at := func(list []syntax.Stmt, i int) string {
		if i < len(list) {
			return fmt.Sprintf("before line %d", list[i].Pos().Line())
		}
		return fmt.Sprintf("after line %d", list[len(list)-1].Pos().Line())
	}
	for _, p := range s.Split {
		waits := ""
		if len(p.Waits) > 0 {
			waits = " + wait " + VarNames(p.Waits)
		}
		kind := "mbarrier"
		if !p.Barrier {
			kind = "no barrier"
		}
		var ws []string
		for _, w := range p.WaitAt {
			ws = append(ws, w.line())
		}
		fmt.Fprintf(&b, "%s: %s: %s %s: arrive %s, wait before %s%s\n", s.Fn.Name, p.Root.Name, kind, p.Scope,
			at(p.ArriveList, p.ArriveAt), strings.Join(ws, ", "), waits)
		if r := p.Roles; r != nil {
			var as []string
			for i, a := range r.At {
				g := ""
				if r.Guard[i] {
					g = " (guard)"
				}
				as = append(as, fmt.Sprintf("%d %s%s", len(r.Reach[i]), at(a.List, a.At), g))
			}
			fmt.Fprintf(&b, "  roles: %d threads arrive (%s), waits for the previous iteration\n", r.Count, strings.Join(as, ", "))
		}
	}
	return b.String()
}

// Describe renders the sync points one per line: the line of the statement
// they precede, the barrier and the memory they order.
func (s *Sync) Describe() string {
	var b strings.Builder
	for _, sp := range s.Points {
		waits := ""
		if len(sp.Waits) > 0 {
			waits = " + wait " + VarNames(sp.Waits)
		}
		fmt.Fprintf(&b, "%s: line %d: %s over %s%s for %s\n", s.Fn.Name, sp.Before.Pos().Line(), sp.Kind(s.Fn.T), sp.Scope, waits, VarNames(sp.Roots))
	}
	return b.String()
}
