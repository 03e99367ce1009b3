package lower

import (
	"sort"

	"weft.dev/weft/lang/prism/dcfg"
	"weft.dev/weft/lang/prism/syntax"
)

// Covered waits (docs/validate.md, "Mutation test"; seed 001 §5).
//
// Split barriers come one per sync point and memory, so one place often
// has several: b2_sgemm arrives on the barriers of As and Bs together and
// then waits for As before loading As and for Bs before loading Bs. A wait
// of barrier p is redundant when the thread has already waited, on the
// same execution of the list, for a barrier q that every thread arrives on
// after p: the thread's wait for phase k of q returns once every thread
// arrived on q for the k-th time, hence (program order, in one list) on p
// for the k-th time after its last uses of p's memory, so phase k of p has
// completed and those uses happen before the thread's first use. The rule
// the generator checks:
//
//   - p and q are barriers whose arrives are in the same list (split
//     points keep the arrive in the sync point's list, so both flip their
//     phase once per execution of it), q's arrive placed before the same
//     statement as p's or a later one (so after p's last uses), with no
//     jump (break, continue, return) between them;
//   - a wait of q dominates p's wait: every path to p's wait passes q's
//     wait first, going down lists and into with bodies (which every
//     thread runs), crossing no jump;
//   - q's own wait there is kept (coverage is transitive, so the
//     strongest barrier's waits stay).
//
// A barrier all of whose waits are covered has nothing left to order: its
// arrive (and the wait for the previous phase before it) goes too.

// coverWaits fills g.dropWait and g.dropArrive for the kernel's split
// barriers bars.
func (g *gen) coverWaits(bars []*dcfg.SplitPoint) {
	g.dropWait = map[*dcfg.SplitPoint]map[int]bool{}
	g.dropArrive = map[*dcfg.SplitPoint]bool{}
	if g.fn == nil || g.fn.Decl == nil {
		return
	}
	root := g.fn.Decl.Body
	// q's arrive comes after p's last uses: at or after p's arrive
	// position (arrives placed before the same statement all follow the
	// statements before it, whatever their order)
	stronger := func(q, p *dcfg.SplitPoint) bool {
		if q == p || !sameList(q.ArriveList, p.ArriveList) || q.ArriveAt < p.ArriveAt {
			return false
		}
		return !anyJump(p.ArriveList[p.ArriveAt:min(q.ArriveAt, len(p.ArriveList))])
	}
	// the latest arrives first, then the earlier sync point: a wait is
	// dropped only for one kept before it in this order
	order := append([]*dcfg.SplitPoint(nil), bars...)
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].ArriveAt != order[j].ArriveAt {
			return order[i].ArriveAt > order[j].ArriveAt
		}
		return order[i].Seq < order[j].Seq
	})
	for i, p := range order {
		dropped := 0
		for wi, w := range p.WaitAt {
			covered := false
			for _, q := range order[:i] {
				if !stronger(q, p) {
					continue
				}
				for qi, wq := range q.WaitAt {
					if !g.dropWait[q][qi] && dominates(root, wq, w) {
						covered = true
					}
				}
			}
			if covered {
				if g.dropWait[p] == nil {
					g.dropWait[p] = map[int]bool{}
				}
				g.dropWait[p][wi] = true
				dropped++
			}
		}
		if dropped > 0 && dropped == len(p.WaitAt) {
			g.dropArrive[p] = true
		}
	}
}

// link is one level of the way from a kernel's body to a position: the
// list, the index in it, and how the way goes on (into a with body, into
// another construct's body, or ends: the position itself).
type link struct {
	list []syntax.Stmt
	i    int
	with bool // the way descends into the body of list[i], a with scope
	end  bool // the position is before list[i]
}

func chain(list []syntax.Stmt, to dcfg.Position) []link {
	if sameList(list, to.List) {
		return []link{{list: list, i: to.At, end: true}}
	}
	for i, s := range list {
		var bodies [][]syntax.Stmt
		with := false
		switch s := s.(type) {
		case *syntax.WithStmt:
			bodies, with = [][]syntax.Stmt{s.Body}, true
		case *syntax.IfStmt:
			bodies = [][]syntax.Stmt{s.Then, s.Else}
		case *syntax.MatchStmt:
			for _, c := range s.Cases {
				bodies = append(bodies, c.Body)
			}
		case *syntax.ForStmt:
			bodies = [][]syntax.Stmt{s.Body}
		case *syntax.WhileStmt:
			bodies = [][]syntax.Stmt{s.Body}
		}
		for _, b := range bodies {
			if len(b) == 0 {
				continue
			}
			if rest := chain(b, to); rest != nil {
				return append([]link{{list: list, i: i, with: with}}, rest...)
			}
		}
	}
	return nil
}

// dominates reports whether every path from the kernel's start to b
// passes a first (see coverWaits).
func dominates(root []syntax.Stmt, a, b dcfg.Position) bool {
	ca, cb := chain(root, a), chain(root, b)
	if ca == nil || cb == nil {
		return false
	}
	for d := 0; d < len(ca) && d < len(cb); d++ {
		la, lb := ca[d], cb[d]
		if !sameList(la.list, lb.list) {
			return false
		}
		switch {
		case la.i < lb.i || la.i == lb.i && la.end && !lb.end:
			// a lies in (or before) an earlier statement than b: every
			// thread reaches it unconditionally from there, and nothing
			// between jumps away
			if anyJump(la.list[la.i:min(lb.i, len(la.list))]) {
				return false
			}
			for _, l := range ca[d+1:] {
				if anyJump(l.list[:min(l.i, len(l.list))]) {
					return false
				}
			}
			for _, l := range ca[d:] {
				if !l.with && !l.end {
					return false
				}
			}
			return true
		case la.i == lb.i && la.end && lb.end:
			return true // the same place
		case la.i == lb.i && !la.end && !lb.end && d+1 < len(ca) && d+1 < len(cb) && sameList(ca[d+1].list, cb[d+1].list):
			continue // into the same body of the same statement
		default:
			return false
		}
	}
	return false
}
