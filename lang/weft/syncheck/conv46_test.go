package syncheck

import (
	"fmt"
	"reflect"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/internal/testrepo"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/lib"
)

// TestAccessDirectMatchesComposed: every proc of the repository's
// programs converts to the same AMIR (statements, and access by access
// its variable, slots and windows: forms by content, compiled ends by
// value at two environments) and diagnostics when the accesses of plain
// variables take accessDirect as when every access goes through the
// composition loop (directOff), and accessDirect is taken (issue 13,
// stop 46).
func TestAccessDirectMatchesComposed(t *testing.T) {
	defer func() { directOff = false }()
	progs, accs := 0, 0
	checked, _ := testrepo.WeftPrograms(t, "../../..", lib.MustStd(), Directives)
	for _, c := range checked {
		f, gpu, l := c.File, c.GPU, c.GPU.Lib
		for _, p := range c.Procs {
			var e1, e2 diag.List
			directOff = false
			got := Convert(f, p, gpu, l, &e1)
			directOff = true
			want := Convert(f, p, gpu, l, &e2)
			directOff = false
			if got == nil || want == nil || got.AMIR == nil {
				continue
			}
			if !reflect.DeepEqual(stmtSigs(got.AMIR.Body), stmtSigs(want.AMIR.Body)) || !reflect.DeepEqual(e1.Diags, e2.Diags) {
				t.Fatalf("%s %s: the conversion differs with accessDirect", c.Path, p.Name.Name)
			}
			g, w := accessSigs(got.AMIR), accessSigs(want.AMIR)
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("%s %s: the accesses differ with accessDirect:\n%v\n%v", c.Path, p.Name.Name, g, w)
			}
			accs += len(g)
			progs++
		}
	}
	t.Logf("%d conversions, %d accesses", progs, accs)
	if progs < 50 || accs < 1000 {
		t.Fatalf("weak coverage: %d conversions, %d accesses", progs, accs)
	}
}

// accessSigs prints the variables' alignments (Gran) and every access
// of p's statements (and their barriers), in preorder: its variable,
// slots and, per window, its forms and its compiled ends evaluated at
// two environments.
func accessSigs(p *amir.Program) []string {
	env := [2][]int{make([]int, len(p.Slots)), make([]int, len(p.Slots))}
	for i := range env[1] {
		env[1][i] = 3*i + 1
	}
	form := func(a *amir.Affine) string {
		if a == nil {
			return "nil"
		}
		return fmt.Sprint(a.K, a.Terms)
	}
	var out []string
	for _, v := range p.Vars {
		out = append(out, fmt.Sprint(v.Name, v.Gran, len(v.Dims)))
	}
	add := func(a *amir.Access) {
		if a == nil {
			return
		}
		s := fmt.Sprint(a.Var, a.Slots)
		for _, w := range a.Idx {
			s += " [" + form(w.LoAff) + " " + form(w.HiAff)
			if w.LoMod != nil {
				s += fmt.Sprint(" mod", *w.LoMod)
			}
			for _, e := range env {
				if w.Lo != nil {
					s += fmt.Sprint(" ", w.Lo(e))
				}
				if w.Hi != nil {
					s += fmt.Sprint(":", w.Hi(e))
				}
			}
			s += "]"
		}
		out = append(out, s)
	}
	amir.Walk(p.Body, func(s *amir.Stmt) {
		add(s.Acc)
		for _, b := range s.Bars {
			add(b)
		}
	})
	return out
}

// TestGroupChunkMatchesAlone: every proc of the repository's programs,
// in its own room and in a tinyRoom (whose statements it outgrows
// sooner), converts to the same AMIR and diagnostics when the groups
// past the room come from one chunk sized by groupEstimate as when each
// is made alone (groupChunkOff), and statements of a group do not
// alias another's (issue 13, stop 46).
func TestGroupChunkMatchesAlone(t *testing.T) {
	defer func() { groupChunkOff, tinyForce = false, false }()
	progs := 0
	checked, _ := testrepo.WeftPrograms(t, "../../..", lib.MustStd(), Directives)
	for _, tiny := range []bool{false, true} {
		tinyForce = tiny
		for _, c := range checked {
			f, gpu, l := c.File, c.GPU, c.GPU.Lib
			for _, p := range c.Procs {
				var e1, e2 diag.List
				groupChunkOff = false
				got := Convert(f, p, gpu, l, &e1)
				groupChunkOff = true
				want := Convert(f, p, gpu, l, &e2)
				groupChunkOff = false
				if got == nil || want == nil || got.AMIR == nil {
					continue
				}
				if !reflect.DeepEqual(stmtSigs(got.AMIR.Body), stmtSigs(want.AMIR.Body)) || !reflect.DeepEqual(e1.Diags, e2.Diags) ||
					!reflect.DeepEqual(accessSigs(got.AMIR), accessSigs(want.AMIR)) {
					t.Fatalf("%s %s (tiny %v): the conversion differs with the groups' chunk", c.Path, p.Name.Name, tiny)
				}
				seen := map[*amir.Stmt]bool{}
				amir.Walk(got.AMIR.Body, func(s *amir.Stmt) {
					if seen[s] {
						t.Fatalf("%s %s: a statement is in the program twice", c.Path, p.Name.Name)
					}
					seen[s] = true
				})
				progs++
			}
		}
	}
	if progs < 100 {
		t.Fatalf("weak coverage: %d conversions", progs)
	}
}
