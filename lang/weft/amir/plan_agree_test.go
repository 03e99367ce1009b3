package amir

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"testing"
)

// planEqual reports whether two plans (or any values of their types) are
// equal: statements, accesses, affine forms and variables' forms by
// identity (the plans point into the program), other pointers followed,
// and a nil slice equal to an empty one (whether a planner allocated an
// empty list is no part of the plan). It returns the path of the first
// difference, "" when none.
func planEqual(a, b any) string {
	return valEqual(reflect.ValueOf(a), reflect.ValueOf(b), "plan")
}

var identityTypes = map[reflect.Type]bool{
	reflect.TypeOf((*Stmt)(nil)):      true,
	reflect.TypeOf((*Access)(nil)):    true,
	reflect.TypeOf((*Affine)(nil)):    true,
	reflect.TypeOf((*ModAffine)(nil)): true,
}

func valEqual(a, b reflect.Value, path string) string {
	if a.IsValid() != b.IsValid() {
		return path + ": one invalid"
	}
	if !a.IsValid() {
		return ""
	}
	if a.Type() != b.Type() {
		return path + ": types differ"
	}
	switch a.Kind() {
	case reflect.Pointer:
		if identityTypes[a.Type()] {
			if a.Pointer() != b.Pointer() {
				return path + ": different objects"
			}
			return ""
		}
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Sprintf("%s: nil %v, %v", path, a.IsNil(), b.IsNil())
			}
			return ""
		}
		return valEqual(a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: lengths %d, %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if d := valEqual(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if d := valEqual(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
		return ""
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return fmt.Sprintf("%s: %v, %v", path, a.Bool(), b.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return fmt.Sprintf("%s: %d, %d", path, a.Int(), b.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if a.Uint() != b.Uint() {
			return fmt.Sprintf("%s: %d, %d", path, a.Uint(), b.Uint())
		}
	default:
		panic(path + ": unexpected kind " + a.Kind().String())
	}
	return ""
}

// planAgreeFacts counts what plansAgree compared.
type planAgreeFacts struct {
	loops, thsym, grid, blk, box int
}

func (f *planAgreeFacts) add(g planAgreeFacts) {
	f.loops += g.loops
	f.thsym += g.thsym
	f.grid += g.grid
	f.blk += g.blk
	f.box += g.box
}

// plansAgree compares, on every non-task loop of finished program p, the
// planners with their stop-32 references (plan_ref_test.go): the thread
// plan, both grid modes and the lite bounds box must be equal.
func plansAgree(p *Program) (planAgreeFacts, error) {
	var f planAgreeFacts
	var err error
	var th thPlanner // one planner for every loop, its scratch reused (as in Finish)
	Walk(p.Body, func(s *Stmt) {
		if err != nil || s.Kind != KLoop || s.Tasks {
			return
		}
		f.loops++
		pl, ref := th.plan(p, s), p.planThreadSymRef(s)
		if d := planEqual(pl, ref); d != "" {
			err = fmt.Errorf("loop of slot %d: thread plans differ: %s", s.Slot, d)
			return
		}
		if d := planEqual(p.planThreadSym(s), ref); d != "" {
			err = fmt.Errorf("loop of slot %d: thread plans (a fresh planner) differ: %s", s.Slot, d)
			return
		}
		if pl != nil {
			f.thsym++
		}
		if d := planEqual(p.planGrid(s), p.planGridRef(s)); d != "" {
			err = fmt.Errorf("loop of slot %d: planGrid differs: %s", s.Slot, d)
			return
		}
		stmts := gridStmts(s)
		for _, blk := range []bool{false, true} {
			g, gRef := p.planGridMode(s, stmts, blk), p.planGridModeRef(s, stmts, blk)
			if d := planEqual(g, gRef); d != "" {
				err = fmt.Errorf("loop of slot %d: grid plans (blk %v) differ: %s", s.Slot, blk, d)
				return
			}
			if g != nil && blk {
				f.blk++
			} else if g != nil {
				f.grid++
			}
		}
		b, bRef := p.planBox(s), p.planBoxRef(s)
		if d := planEqual(b, bRef); d != "" {
			err = fmt.Errorf("loop of slot %d: boxes differ: %s", s.Slot, d)
			return
		}
		if b != nil && len(b.accs) > 0 {
			f.box++
		}
	})
	return f, err
}

// TestPlansAgree compares the planners with their references on the
// random programs of the symmetry tests and of TestPlanQuickAgrees.
func TestPlansAgree(t *testing.T) {
	gens := []struct {
		name string
		gen  func(seed int64) *Program
		n    int64
	}{
		{"plan", randomPlanProgram, 4000},
		{"thsym", randomThreadSymProgram, 300},
		{"private", randomPrivateThreadSymProgram, 300},
		{"classes", randomClassesProgram, 300},
		{"grid", randomGridProgram, 300},
		{"block", func(seed int64) *Program { return randomBlockProgram(seed, seed%2 == 0) }, 300},
		{"odd plan", func(seed int64) *Program { return perturbPlan(randomPlanProgram(seed), seed) }, 3000},
		{"odd grid", func(seed int64) *Program { return perturbPlan(randomGridProgram(seed), seed) }, 1000},
		{"odd block", func(seed int64) *Program { return perturbPlan(randomBlockProgram(seed, seed%2 == 0), seed) }, 1000},
	}
	var all planAgreeFacts
	for _, g := range gens {
		var fs planAgreeFacts
		for seed := int64(0); seed < g.n; seed++ {
			f, err := plansAgree(g.gen(seed))
			if err != nil {
				t.Fatalf("%s seed %d: %v", g.name, seed, err)
			}
			fs.add(f)
		}
		t.Logf("%s: %+v", g.name, fs)
		all.add(fs)
	}
	if all.thsym < 1000 || all.grid < 300 || all.blk < 100 || all.box < 100 {
		t.Fatalf("weak coverage: %+v", all)
	}
}

// perturbPlan gives finished program p forms its generator never makes
// and finishes it again (only its plans are compared, it is not run): an
// inner loop that reuses an enclosing loop's iterator (two axes of one
// slot), and windows that read a loop's iterator outside that loop (a
// nest slot read outside its loop) or another enclosing iterator.
func perturbPlan(p *Program, seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	var loops []*Stmt
	var accs []*Access
	parent := map[*Stmt]*Stmt{}
	var walk func(s, encl *Stmt)
	walk = func(s, encl *Stmt) {
		if s.Kind == KLoop && !s.Tasks {
			loops = append(loops, s)
			if encl != nil {
				parent[s] = encl
			}
			encl = s
		}
		if s.Acc != nil && len(s.Acc.Idx) > 0 {
			accs = append(accs, s.Acc)
		}
		for _, b := range s.Body {
			walk(b, encl)
		}
	}
	walk(p.Body, nil)
	if len(loops) == 0 {
		return p
	}
	if rng.Intn(2) == 0 {
		for _, l := range loops {
			if par := parent[l]; par != nil && rng.Intn(2) == 0 {
				l.Ctl = &Ctl{Slot: par.Slot, Lo: l.Ctl.Lo, Hi: l.Ctl.Hi}
				break
			}
		}
	}
	if rng.Intn(2) == 0 {
		// A statement after a loop on the access of the loop's last
		// statement: one access under two chains of enclosing loops.
		var share func(s *Stmt)
		share = func(s *Stmt) {
			for i, t := range s.Body {
				if t.Kind == KLoop && len(t.Body) > 0 && i+1 < len(s.Body) {
					last, next := t.Body[len(t.Body)-1], s.Body[i+1]
					if last.Acc != nil && next.Acc != nil && next.Kind != KAlloc && last.Kind != KAlloc && rng.Intn(2) == 0 {
						next.Acc = last.Acc
					}
				}
				share(t)
			}
		}
		share(p.Body)
	}
	for i := 0; i < 1+rng.Intn(3) && len(accs) > 0; i++ {
		a := accs[rng.Intn(len(accs))]
		w := &a.Idx[rng.Intn(len(a.Idx))]
		if w.LoAff == nil {
			continue
		}
		sl := loops[rng.Intn(len(loops))].Slot
		w.LoAff = &Affine{K: w.LoAff.K, Terms: append(slices.Clone(w.LoAff.Terms), Term{Slot: sl, Coef: 1 + rng.Intn(2)})}
		if w.Hi != nil && w.HiAff != nil && rng.Intn(2) == 0 {
			w.HiAff = &Affine{K: w.HiAff.K, Terms: append(slices.Clone(w.HiAff.Terms), Term{Slot: sl, Coef: 1})}
		}
		if !slices.Contains(a.Slots, sl) {
			a.Slots = append(a.Slots, sl)
		}
	}
	p.Finish()
	return p
}

// TestThreadPlanScope: a private variable allocated in an If's body and
// accessed after the If is out of scope there (each access must follow
// its Alloc in the same list or an enclosing one): no thread plan. The
// planner's scope stack must be cut back at the end of a list.
func TestThreadPlanScope(t *testing.T) {
	b := newBuilder(64)
	task, y := b.slot("task"), b.slot("y")
	L := b.local("L", 4)
	G := b.newVar("G", false, 64)
	var loop *Stmt
	b.loop(task, 0, 1, true, func() {
		b.loop(y, 0, 32, false, func() {
			st := &Affine{Terms: []Term{{Slot: y, Coef: 1}}}
			e := Exec{Shape: shThread, Start: st.Eval, StartAff: st}
			zero := &Affine{}
			atL := func() *Access { return &Access{Var: L, Idx: []Window{{Lo: zero.Eval, LoAff: zero}}} }
			b.open()
			b.alloc(L)
			b.write(e, atL(), qCuda2, FullyOrdered)
			body := b.close()
			b.add(&Stmt{Kind: KIf, Sync: -1, Body: body, Ctl: &Ctl{Cond: func([]int) bool { return true }}})
			b.read(e, atL(), qCuda2)
			b.write(e, &Access{Var: G, Idx: []Window{{Lo: st.Eval, LoAff: st}}, Slots: []int{y}}, qCuda2, FullyOrdered)
		})
		top := b.stack[len(b.stack)-1]
		loop = top[len(top)-1]
	})
	p := b.build()
	if _, err := plansAgree(p); err != nil {
		t.Fatal(err)
	}
	if pl := p.planThreadSymRef(loop); pl != nil {
		t.Fatalf("the reference planned the loop: %+v", pl)
	}
	// The same program with the read inside the If has a plan.
	ifs := loop.Body[0]
	ifs.Body = append(ifs.Body, loop.Body[1:len(loop.Body)-5]...)
	loop.Body = append(loop.Body[:1], loop.Body[len(loop.Body)-5:]...)
	p.Finish()
	if _, err := plansAgree(p); err != nil {
		t.Fatal(err)
	}
	if pl := p.planThreadSym(loop); pl == nil || len(pl.private) != 1 {
		t.Fatalf("no plan with a private variable for the loop: %+v", pl)
	}
}
