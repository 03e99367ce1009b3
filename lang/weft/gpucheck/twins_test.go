package gpucheck

import (
	"fmt"
	"reflect"
	"testing"

	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/lib"
)

// rederive derives b again along its chain of parents from a new device
// tiling: each level a first derivation from a tiling that has derived
// nothing, so neither coll's memo nor its twins (twin.go) or kept warp
// alignments (warps.go) answer.
func rederive(b *coll.Tiling) (*coll.Tiling, error) {
	if b.Parent == nil {
		return coll.DeviceTiling(b.M)
	}
	p, err := rederive(b.Parent)
	if err != nil {
		return nil, err
	}
	switch b.Kind {
	case coll.KindThreads:
		return p.CudaThreads(b.Iter, b.Count, b.Unit)
	case coll.KindWarps:
		return p.CudaWarps(b.Lo, b.Hi)
	case coll.KindNamedWarps:
		return p.NamedWarps(b.WarpName, b.Lo, b.Hi)
	}
	return nil, fmt.Errorf("kind %v", b.Kind)
}

// sameExported compares what coll exports of two tilings.
func sameExported(a, b *coll.Tiling) bool {
	return a.M == b.M && a.Kind == b.Kind && reflect.DeepEqual(a.Dims, b.Dims) &&
		reflect.DeepEqual(a.Tile, b.Tile) && reflect.DeepEqual(a.Full, b.Full) &&
		reflect.DeepEqual(a.Ops(), b.Ops()) && reflect.DeepEqual(a.Base, b.Base) &&
		a.Iter == b.Iter && a.Count == b.Count && (a.Kind != coll.KindThreads || coll.SameOn(&a.Unit, &b.Unit, a.M)) &&
		a.Lo == b.Lo && a.Hi == b.Hi && a.WarpName == b.WarpName &&
		a.TileThreads == b.TileThreads && a.Threads() == b.Threads() &&
		a.Lowering() == b.Lowering() && a.String() == b.String() && a.Describe() == b.Describe()
}

// TestBodiesMatchRederived checks every body tiling of the GPU checker on
// the repository's programs (sibling loops' bodies among them, made as
// twins of the first, and CudaWarps blocks from a kept alignment) against
// the same chain of derivations made afresh, and each one's collective at
// every iterator value.
func TestBodiesMatchRederived(t *testing.T) {
	l := lib.MustStd()
	bodies := 0
	for _, c := range checkedPrograms(t, l) {
		for _, sb := range c.res.bodies.list {
			b := sb.body
			if b == nil {
				continue
			}
			f, err := rederive(b)
			if err != nil {
				t.Fatalf("%s: %s derived again: %v", c.path, b, err)
			}
			if !sameExported(b, f) {
				t.Fatalf("%s: body %s differs from its fresh derivation %s", c.path, b, f)
			}
			env := make([]int, 0, 64)
			for _, term := range b.Base.Terms {
				for len(env) <= term.Iter {
					env = append(env, 0)
				}
				env[term.Iter] = term.Count - 1
			}
			if x, y := b.Collective(env), f.Collective(env); x.String() != y.String() {
				t.Fatalf("%s: body %s: collective %s, fresh %s", c.path, b, x.String(), y.String())
			}
			bodies++
		}
	}
	if bodies < 250 {
		t.Errorf("only %d bodies compared", bodies)
	}
	t.Logf("%d bodies compared", bodies)
}
