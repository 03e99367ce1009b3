package amir

// Lazy thread plans (issue 13, stop 37: conv37). Finish had made, for
// every loop whose start reads its iterator, a thread plan (thsym) and a
// grid plan, and for every loop around one statement a 2-D plan (th2),
// but the machine reads a loop's thread plans only at an entry of two
// iterations or more outside a virtual loop and a grid nest (exec), and
// at most one of them runs: shfl_xor's inner lane loops, entered inside
// their grid nests only, were planned for nothing (9 thread plans, 6
// never read; 20 K instructions of planning a check with their 2-D
// plans). Finish now marks those plans pending (Stmt.thsym = thPending,
// th2 = th2Pending: a loop's test of its plan is unchanged where it has
// none, as on the three-ring rows' loops entered 25 times a check); the
// machine asks for one through thPlanOf or th2PlanOf, which plans it at
// the first ask, exactly as Finish had:
//
//   - A plan reads its subtree's statements, their dead marks and the
//     variables' facts (accN, allocN, TaskLocal, Barrier, the rings),
//     all set by Finish and never changed by a run (the machine writes
//     no Stmt, Access or Var field a planner reads: the grid's lazy
//     plan is Stmt.grid, the hoisting caches Access fields no planner
//     reads), so planning later gives the same plan; the planner's
//     scratch is reset per plan (thPlanner.plan).
//   - Finish dropped, when some loop had a one-thread grid plan
//     (!p.thExt, final when Finish ends), the thread plans that need the
//     stop-29 extensions and every 2-D plan (dropThExt): thPlanOf drops
//     the first at planning, th2PlanOf plans none.
//   - planThreadSym2 read the loop's and its inner loop's thread plans,
//     made before it (bottom up): th2PlanOf asks for both first. The
//     inner plan it keeps (th2Plan.pl) is the inner loop's Stmt.thsym,
//     as before (no drop applies where a 2-D plan is made: p.thExt).
//
// Grid plans stay eager: p.thExt is the "and" of all of them, read at
// every thread-symmetric entry of a quiet loop.
//
// Checked by TestLazyPlansMatchEager (plan_lazy37_test.go): the plans
// asked for in random orders are those of main's eager Finish, on every
// random generator and every repository program, and the machine's
// Results are those of a run whose plans were all made at Finish.

// thPending and th2Pending stand for a plan not made yet: only thPlanOf
// and th2PlanOf read them; every other reader of Stmt.thsym and th2 is
// reached after one of those (exec's tests) or tests for nil only (an
// empty loop never has a pending plan: startReadsIter and th2Candidate
// need a statement in its body; blkLeaveToThSym lists pending plans and
// asks for them).
var (
	thPending  = &thPlan{}
	th2Pending = &th2Plan{}
)

// th2Candidate reports whether planThreadSym2 may plan loop s, once its
// and its inner loop's thread plans are known: a non-task loop around
// one statement, a non-task loop with a thread plan (pending or made).
// Any other loop gets none, as planThreadSym2's first tests answer.
func th2Candidate(s *Stmt) bool {
	if s.Kind != KLoop || s.Tasks || len(s.Body) != 1 {
		return false
	}
	t := s.Body[0]
	return t.Kind == KLoop && !t.Tasks && t.thsym != nil // made or pending
}

// thPlanOf returns loop s's thread plan (nil: none), planning it at the
// first ask (small enough to inline: the machine asks at every entry).
func (p *Program) thPlanOf(s *Stmt) *thPlan {
	if s.thsym == thPending {
		p.planTh(s)
	}
	return s.thsym
}

// planTh makes loop s's pending thread plan.
func (p *Program) planTh(s *Stmt) {
	s.thsym = nil
	if p.th == nil {
		p.th = new(thPlanner)
	}
	pl := p.th.plan(p, s)
	if pl != nil && !p.thExt && (pl.inner || len(pl.private) > 0 || len(pl.yconds) > 0) {
		pl = nil // needs the stop-29 extensions (Finish's dropThExt)
	}
	s.thsym = pl
}

// th2PlanOf returns loop s's plan as the outer loop of a 2-D nest (nil:
// none), planning it at the first ask.
func (p *Program) th2PlanOf(s *Stmt) *th2Plan {
	if s.th2 == th2Pending {
		p.planTh2(s)
	}
	return s.th2
}

// planTh2 makes loop s's pending 2-D plan.
func (p *Program) planTh2(s *Stmt) {
	s.th2 = nil
	if p.thExt {
		p.thPlanOf(s)
		p.thPlanOf(s.Body[0])
		s.th2 = p.planThreadSym2(s)
	}
}

// planAll makes every pending plan of p now, the loops in preorder (the
// eager Finish's plans; tests, and programs read outside the machine).
func (p *Program) planAll() {
	Walk(p.Body, func(s *Stmt) {
		if s.Kind == KLoop {
			p.thPlanOf(s)
			p.th2PlanOf(s)
		}
	})
}
