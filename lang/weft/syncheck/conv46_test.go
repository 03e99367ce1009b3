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
	progs, accs := 0, 0
	convertBothWays(t, &directOff, func(what string, got, want *Program) {
		g := accessSigs(got.AMIR)
		if !reflect.DeepEqual(g, accessSigs(want.AMIR)) {
			t.Fatalf("%s: the accesses differ with accessDirect", what)
		}
		accs += len(g)
		progs++
	})
	t.Logf("%d conversions, %d accesses", progs, accs)
	if progs < 50 || accs < 1000 {
		t.Fatalf("weak coverage: %d conversions, %d accesses", progs, accs)
	}
}

// convertBothWays converts every proc of the repository's programs with
// *off false and true, fails when the statements (stmtSigs) or the
// diagnostics differ, and else hands both conversions to check.
func convertBothWays(t *testing.T, off *bool, check func(what string, got, want *Program)) {
	t.Helper()
	defer func() { *off = false }()
	checked, _ := testrepo.WeftPrograms(t, "../../..", lib.MustStd(), Directives)
	for _, c := range checked {
		f, gpu, l := c.File, c.GPU, c.GPU.Lib
		for _, p := range c.Procs {
			var e1, e2 diag.List
			*off = false
			got := Convert(f, p, gpu, l, &e1)
			*off = true
			want := Convert(f, p, gpu, l, &e2)
			*off = false
			if got == nil || want == nil || got.AMIR == nil {
				continue
			}
			what := c.Path + " " + p.Name.Name
			if !reflect.DeepEqual(stmtSigs(got.AMIR.Body), stmtSigs(want.AMIR.Body)) || !reflect.DeepEqual(e1.Diags, e2.Diags) {
				t.Fatalf("%s: the conversion differs both ways", what)
			}
			check(what, got, want)
		}
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
	defer func() { tinyForce = false }()
	progs := 0
	for _, tiny := range []bool{false, true} {
		tinyForce = tiny
		convertBothWays(t, &groupChunkOff, func(what string, got, want *Program) {
			if !reflect.DeepEqual(accessSigs(got.AMIR), accessSigs(want.AMIR)) {
				t.Fatalf("%s (tiny %v): the accesses differ with the groups' chunk", what, tiny)
			}
			seen := map[*amir.Stmt]bool{}
			amir.Walk(got.AMIR.Body, func(s *amir.Stmt) {
				if seen[s] {
					t.Fatalf("%s: a statement is in the program twice", what)
				}
				seen[s] = true
			})
			progs++
		})
	}
	if progs < 100 {
		t.Fatalf("weak coverage: %d conversions", progs)
	}
}
