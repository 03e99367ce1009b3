package dcfg

import (
	"weft.dev/weft/lang/prism/check"
	"weft.dev/weft/lang/prism/syntax"
)

// Role-restricted split barriers (docs/prism.md, "Split barriers of a
// loop's roles"; seed 001 §5).
//
// A split barrier counts the whole block: every thread arrives once per
// execution of the sync point's list, also the threads that never touch
// the memory, and the arrive can only move up within that list. When the
// sync point orders the accesses of a loop's previous iteration (its
// parents are reached only over the backedge), the barrier can instead
// count just the threads that touch the memory in the loop body: each of
// them arrives right after its own last access of an iteration, however
// deep in with scopes and split cases that is, and the waiters (wait
// motion, unchanged) wait for the phase of the previous iteration's
// arrivals. On the H100 GEMM this is the consumers' "slot empty" arrive
// after the wgmma block that reads the slot and the producer's wait
// before it refills the slot.
//
// The conditions, all checked here (otherwise the block-wide form stays):
//
//   - the sync point stands directly in the body of a loop that has no
//     jump (break, continue, return), the body holds every access of the
//     memory (every graph node on it), and no statement of the body
//     before the sync point touches it: its parents are the accesses of
//     the previous iteration;
//   - the threads of the block are followed through the body as the
//     lowering numbers them (group: position modulo the group's size;
//     split case: its range, renumbered from 0); a thread touches a
//     statement when it runs a part of it that names the memory
//     (touches); each touching thread gets one arrive position, after
//     its last touching statement, descending into group, claim and
//     partition scopes and split cases (never into an if, a loop or an
//     async or wgmma scope, whose completion is its end), and the set of
//     threads that reach each position must be exactly the threads it is
//     for: every toucher arrives exactly once per iteration, nobody else
//     does;
//   - every thread that can reach a wait of the barrier touches the
//     statement the wait precedes, so it arrives, after its wait, in the
//     same iteration.
//
// Why it is sound: the j-th arrival of every arriver is in iteration j.
// Before an arrival a thread that may not have waited in this iteration
// first waits for the previous phase (its own phase bit), so arrival j
// lands in phase j. A waiter of iteration k waits for the parity of
// phase k-1 (k = 0: the phase before the first, complete on a fresh
// mbarrier): phase k-2 completed before its own arrival k-1, and phase k
// cannot complete before its own arrival k, which follows the wait, so
// the parity names phase k-1 only. Phase k-1 complete means every
// toucher finished its accesses of iteration k-1.

// RoleArrive is the arrive side of a role-restricted split barrier.
type RoleArrive struct {
	Loop  syntax.Stmt
	At    []Position // arrive positions
	Reach [][]int    // the threads (block positions) reaching each
	Guard []bool     // the threads there may not have waited in this iteration
	Count int        // arrivals per phase: the threads touching the memory
}

// roleArrive returns the role-restricted arrive of split point p, or nil
// where a condition does not hold.
func (in *inferer) roleArrive(p *SplitPoint) *RoleArrive {
	T := in.fn.T
	if T <= 0 || T > 1024 || !p.Barrier {
		return nil
	}
	w, ok := in.where[p.Before]
	if !ok {
		return nil
	}
	var body []syntax.Stmt
	switch l := w.parent.(type) {
	case *syntax.ForStmt:
		body = l.Body
	case *syntax.WhileStmt:
		body = l.Body
	default:
		return nil
	}
	if !sameStmts(body, p.List) || hasJump(body) {
		return nil
	}
	root := p.Root
	for _, n := range in.nodes {
		if n.Root == root && !in.contains(body, n) {
			return nil
		}
	}
	for _, s := range body[:p.Index] {
		if in.touches(s, root) {
			return nil
		}
	}
	start := make([]int, T)
	for t := range start {
		start[t] = t
	}
	rel, found, ok := in.execIn(in.fn.Decl.Body, start, body)
	if !found || !ok {
		return nil
	}
	r := &RoleArrive{Loop: w.parent.(syntax.Stmt)}
	all := in.touchList(body, rel, root)
	if all == nil {
		return nil
	}
	if !in.placeArrives(body, rel, all, root, r) {
		return nil
	}
	arrivers := map[int]bool{}
	for _, ts := range r.Reach {
		for _, t := range ts {
			arrivers[t] = true
		}
	}
	for t, on := range all {
		if on != arrivers[t] {
			return nil
		}
	}
	r.Count = len(arrivers)
	if r.Count == 0 || r.Count >= T {
		// every thread touches the memory: the block-wide form orders
		// the same threads, and its waits can cover each other (package
		// lower, cover.go)
		return nil
	}
	// Waiters: every thread that can reach a wait arrives after it; the
	// ones that wait on every iteration (the wait reached through with
	// scopes and split cases only) need no guard before their arrive.
	waitAlways := map[int]bool{}
	for _, wp := range p.WaitAt {
		wrel, found, ok := in.execIn(body, rel, wp.List)
		if !found || !ok {
			return nil
		}
		if wp.At >= len(wp.List) {
			return nil
		}
		tb := in.touchBy(wp.List[wp.At], wrel, root)
		if tb == nil {
			return nil
		}
		for t, x := range wrel {
			if x >= 0 && (!tb[t] || !arrivers[t]) {
				return nil
			}
		}
		if in.straightTo(body, wp.List) {
			for t, x := range wrel {
				if x >= 0 {
					waitAlways[t] = true
				}
			}
		}
	}
	for _, ts := range r.Reach {
		guard := false
		for _, t := range ts {
			if !waitAlways[t] {
				guard = true
			}
		}
		r.Guard = append(r.Guard, guard)
	}
	return r
}

func sameStmts(a, b []syntax.Stmt) bool {
	return len(a) > 0 && len(a) == len(b) && &a[0] == &b[0]
}

// enterWith gives the threads' positions inside with statement s.
func (in *inferer) enterWith(s *syntax.WithStmt, rel []int) ([]int, bool) {
	r := in.info.Regions[s]
	if r == nil || r.Kind != "group" {
		return rel, true
	}
	switch r.Target.Level {
	case check.Grid:
		return rel, true
	case check.Block:
		if r.Target.N >= 1 {
			return rel, true // positions are within one block
		}
		return nil, false
	}
	n := check.Threads(r.Target, in.fn.T, 0)
	if n <= 0 {
		return nil, false
	}
	out := make([]int, len(rel))
	for t, x := range rel {
		out[t] = -1
		if x >= 0 {
			out[t] = x % n
		}
	}
	return out, true
}

// enterCase gives the threads' positions inside case c of s.
func (in *inferer) enterCase(s *syntax.MatchStmt, c int, rel []int) ([]int, bool) {
	sp := in.info.Splits[s]
	if sp == nil || c >= len(sp.Branch) || sp.Branch[c].Level != check.Thread {
		return nil, false
	}
	if !(sp.Code.Level == check.Thread || sp.Code.Level == check.Block && sp.Code.N == 1) {
		return nil, false
	}
	lo, hi := sp.Offsets[c], sp.Offsets[c]+sp.Sizes[c]
	out := make([]int, len(rel))
	for t, x := range rel {
		out[t] = -1
		if x >= lo && x < hi {
			out[t] = x - lo
		}
	}
	return out, true
}

// bodies lists the statement lists nested directly in s.
func bodies(s syntax.Stmt) [][]syntax.Stmt {
	switch s := s.(type) {
	case *syntax.WithStmt:
		return [][]syntax.Stmt{s.Body}
	case *syntax.IfStmt:
		return [][]syntax.Stmt{s.Then, s.Else}
	case *syntax.ForStmt:
		return [][]syntax.Stmt{s.Body}
	case *syntax.WhileStmt:
		return [][]syntax.Stmt{s.Body}
	case *syntax.MatchStmt:
		var out [][]syntax.Stmt
		for _, c := range s.Cases {
			out = append(out, c.Body)
		}
		return out
	}
	return nil
}

// execIn returns the positions of the threads (-1: not running it) when
// they run list target, nested somewhere in list, which they run with
// positions rel. Ifs and loops pass every thread on (a superset).
func (in *inferer) execIn(list []syntax.Stmt, rel []int, target []syntax.Stmt) (out []int, found, ok bool) {
	if sameStmts(list, target) {
		return rel, true, true
	}
	for _, s := range list {
		for i, b := range bodies(s) {
			if len(b) == 0 || !holdsList(b, target) {
				continue
			}
			inner, ok := rel, true
			switch s := s.(type) {
			case *syntax.WithStmt:
				inner, ok = in.enterWith(s, rel)
			case *syntax.MatchStmt:
				inner, ok = in.enterCase(s, i, rel)
			}
			if !ok {
				return nil, true, false
			}
			return in.execIn(b, inner, target)
		}
	}
	return nil, false, true
}

// holdsList reports whether target is list or nested in it.
func holdsList(list, target []syntax.Stmt) bool {
	if sameStmts(list, target) {
		return true
	}
	for _, s := range list {
		for _, b := range bodies(s) {
			if len(b) > 0 && holdsList(b, target) {
				return true
			}
		}
	}
	return false
}

// straightTo reports whether target lies in list through with bodies and
// split cases only (every thread of a case that runs list runs it, once).
func (in *inferer) straightTo(list, target []syntax.Stmt) bool {
	if sameStmts(list, target) {
		return true
	}
	for _, s := range list {
		switch s := s.(type) {
		case *syntax.WithStmt:
			if holdsList(s.Body, target) {
				return in.straightTo(s.Body, target)
			}
		case *syntax.MatchStmt:
			for _, c := range s.Cases {
				if len(c.Body) > 0 && holdsList(c.Body, target) {
					return in.straightTo(c.Body, target)
				}
			}
		default:
			for _, b := range bodies(s) {
				if len(b) > 0 && holdsList(b, target) {
					return false
				}
			}
		}
	}
	return false
}

// descends reports whether arrive placement may go into the body of with
// statement s: a scope that only renames memory or regroups threads.
func (in *inferer) descends(s *syntax.WithStmt, root *check.Var) bool {
	r := in.info.Regions[s]
	if r == nil {
		return false
	}
	switch r.Kind {
	case "group":
		return true
	case "claim", "partition":
		return !in.touchesHeader(s, root)
	}
	return false
}

// touchBy says which threads (positions rel) touch root in statement s;
// nil when the threads cannot be told.
func (in *inferer) touchBy(s syntax.Stmt, rel []int, root *check.Var) []bool {
	out := make([]bool, len(rel))
	switch s := s.(type) {
	case *syntax.WithStmt:
		if in.descends(s, root) {
			inner, ok := in.enterWith(s, rel)
			if !ok {
				return nil
			}
			return in.touchList(s.Body, inner, root)
		}
	case *syntax.MatchStmt:
		if _, ok := in.info.Splits[s]; ok {
			for c, cs := range s.Cases {
				inner, ok := in.enterCase(s, c, rel)
				if !ok {
					return nil
				}
				tb := in.touchList(cs.Body, inner, root)
				if tb == nil {
					return nil
				}
				for t := range out {
					out[t] = out[t] || tb[t]
				}
			}
			return out
		}
	}
	if in.touches(s, root) {
		for t, x := range rel {
			out[t] = x >= 0
		}
	}
	return out
}

func (in *inferer) touchList(list []syntax.Stmt, rel []int, root *check.Var) []bool {
	out := make([]bool, len(rel))
	for _, s := range list {
		tb := in.touchBy(s, rel, root)
		if tb == nil {
			return nil
		}
		for t := range out {
			out[t] = out[t] || tb[t]
		}
	}
	return out
}

// placeArrives gives each thread of g (running list with positions rel)
// an arrive after its last statement of list touching root, descending
// into the statement where it can; false when the threads reaching a
// position are not exactly those it is for.
func (in *inferer) placeArrives(list []syntax.Stmt, rel []int, g []bool, root *check.Var, r *RoleArrive) bool {
	last := make([]int, len(rel))
	for t := range last {
		last[t] = -1
	}
	for i, s := range list {
		tb := in.touchBy(s, rel, root)
		if tb == nil {
			return false
		}
		for t, on := range tb {
			if on && g[t] {
				last[t] = i
			}
		}
	}
	for t, on := range g {
		if on && last[t] < 0 {
			return false // a thread of g that does not touch root here
		}
	}
	for i, s := range list {
		gi := make([]bool, len(rel))
		any := false
		for t := range gi {
			if g[t] && last[t] == i {
				gi[t], any = true, true
			}
		}
		if !any {
			continue
		}
		switch s := s.(type) {
		case *syntax.WithStmt:
			if in.descends(s, root) {
				inner, ok := in.enterWith(s, rel)
				if !ok || !in.placeArrives(s.Body, inner, gi, root, r) {
					return false
				}
				continue
			}
		case *syntax.MatchStmt:
			if _, ok := in.info.Splits[s]; ok {
				for c, cs := range s.Cases {
					inner, ok := in.enterCase(s, c, rel)
					if !ok {
						return false
					}
					gc := make([]bool, len(rel))
					anyc := false
					for t := range gc {
						if gi[t] && inner[t] >= 0 {
							gc[t], anyc = true, true
						}
					}
					if anyc && !in.placeArrives(cs.Body, inner, gc, root, r) {
						return false
					}
				}
				continue
			}
		}
		// After list[i]: every thread running list reaches the position,
		// so they must be exactly gi.
		var reach []int
		for t, x := range rel {
			if x >= 0 != gi[t] {
				return false
			}
			if x >= 0 {
				reach = append(reach, t)
			}
		}
		r.At = append(r.At, Position{List: list, At: i + 1})
		r.Reach = append(r.Reach, reach)
	}
	return true
}
