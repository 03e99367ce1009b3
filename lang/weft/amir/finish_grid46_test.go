package amir

import "testing"

// Finish plans a loop's grid from its walk's tails (planFrom, issue 13,
// stop 46), by planGrid's walks when its statements outgrow the walk's
// array (64) or some statement other than a loop, block or If has a body
// (treeWalk.odd: gridCollect does not walk it). TestFinishTreeMatchesWalks
// compares every plan of the random programs with planGrid's (finishRef);
// these tests make sure each path is taken.

// nonCtl counts the statements of s's subtree other than loops, blocks
// and Ifs, and its loops with a grid plan.
func nonCtl(s *Stmt) (n, grids int) {
	switch s.Kind {
	case KBlock, KIf:
	case KLoop:
		if s.grid != nil {
			grids++
		}
	default:
		n++
	}
	for _, b := range s.Body {
		a, g := nonCtl(b)
		n, grids = n+a, grids+g
	}
	return n, grids
}

// TestFinishGridPaths: the random programs plan grids both from the
// walk's array and past it.
func TestFinishGridPaths(t *testing.T) {
	var grids [2]int // within the array, past it
	for _, gen := range randomGens() {
		for seed := int64(0); seed < 400; seed++ {
			p := gen(seed)
			if p == nil {
				continue
			}
			p.Finish()
			n, g := nonCtl(p.Body)
			if n > 64 {
				grids[1] += g
			} else {
				grids[0] += g
			}
		}
	}
	t.Logf("grid plans: %d in programs within the array, %d past it", grids[0], grids[1])
	if grids[0] < 1000 || grids[1] < 10 {
		t.Fatalf("weak coverage: %v", grids)
	}
}

// TestFinishGridOdd: a program where a data statement has a body (which
// the IR never makes) gets planGrid's plans: each random program with a
// grid plan, its first data statement given as body a copy of itself
// that gridCollect would refuse (a transaction's), which it does not walk.
func TestFinishGridOdd(t *testing.T) {
	n := 0
	for gi, gen := range randomGens() {
		for seed := int64(0); seed < 400; seed++ {
			p := gen(seed)
			if p == nil {
				continue
			}
			p.Finish()
			if _, g := nonCtl(p.Body); g == 0 {
				continue
			}
			var data *Stmt
			var find func(s *Stmt)
			find = func(s *Stmt) {
				for _, b := range s.Body {
					if data != nil {
						return
					}
					switch b.Kind {
					case KRecordRead, KRecordMutate, KCheckReads, KCheckMutates:
						data = b
					default:
						find(b)
					}
				}
			}
			find(p.Body)
			if data == nil {
				continue
			}
			c := *data
			c.TxBytes = 4
			data.Body = []*Stmt{&c}
			if d, what, _, _ := finishTreeAgrees(p, nil); d >= 0 {
				t.Fatalf("generator %d, seed %d: statement %d: %s differ from the three walks'", gi, seed, d, what)
			}
			n++
		}
	}
	if n < 100 {
		t.Fatalf("weak coverage: %d programs", n)
	}
}
