package syncheck

import (
	"reflect"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/internal/testrepo"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/lib"
)

// TestSlotAffMatchesNew checks affineFormOf's shared slot forms
// (slotAff) against forms made anew: every proc of the repository's
// programs converted both ways gives the same statements, diagnostics
// and, access by access, window forms of the same content (issue 13,
// stop 44). It also asks that forms were shared.
func TestSlotAffMatchesNew(t *testing.T) {
	defer func() { slotAffOff = false }()
	progs, forms, shared := 0, 0, 0
	checked, _ := testrepo.WeftPrograms(t, "../../..", lib.MustStd(), Directives)
	for _, c := range checked {
		f, gpu, l := c.File, c.GPU, c.GPU.Lib
		for _, p := range c.Procs {
			var e1, e2 diag.List
			slotAffOff = false
			got := Convert(f, p, gpu, l, &e1)
			slotAffOff = true
			want := Convert(f, p, gpu, l, &e2)
			slotAffOff = false
			if got == nil || want == nil || got.AMIR == nil {
				continue
			}
			if !reflect.DeepEqual(stmtSigs(got.AMIR.Body), stmtSigs(want.AMIR.Body)) || !reflect.DeepEqual(e1.Diags, e2.Diags) {
				t.Fatalf("%s %s: the conversion differs with slotAff", c.Path, p.Name.Name)
			}
			g, w := windowForms(got.AMIR), windowForms(want.AMIR)
			if len(g) != len(w) {
				t.Fatalf("%s %s: %d window forms with slotAff, %d without", c.Path, p.Name.Name, len(g), len(w))
			}
			seen := map[*amir.Affine]bool{}
			for i := range g {
				if (g[i] == nil) != (w[i] == nil) || g[i] != nil && (g[i].K != w[i].K || !reflect.DeepEqual(g[i].Terms, w[i].Terms)) {
					t.Fatalf("%s %s: window form %d differs with slotAff: %v, %v", c.Path, p.Name.Name, i, g[i], w[i])
				}
				if g[i] != nil {
					forms++
					if seen[g[i]] && len(g[i].Terms) == 1 {
						shared++
					}
					seen[g[i]] = true
				}
			}
			progs++
		}
	}
	t.Logf("%d conversions, %d window forms, %d of them a slot's form shared", progs, forms, shared)
	if progs < 50 || shared < 100 {
		t.Fatalf("weak coverage: %d conversions, %d shared forms", progs, shared)
	}
}

// windowForms lists the forms of every access's windows (LoAff, HiAff)
// and of the variables' extents, in statement order.
func windowForms(p *amir.Program) []*amir.Affine {
	var out []*amir.Affine
	add := func(a *amir.Access) {
		if a == nil {
			return
		}
		for _, w := range a.Idx {
			out = append(out, w.LoAff, w.HiAff)
		}
	}
	amir.Walk(p.Body, func(s *amir.Stmt) {
		add(s.Acc)
		for _, b := range s.Bars {
			add(b)
		}
	})
	return out
}
