package distmem

import "weft.dev/weft/lang/weft/gpucheck"

// A small analysis takes its arrays from one room (issue 13, stop 46):
// Check had made five of them apart (its result, the deductions' table,
// the deductions, the triples and their lists; seven with desugared
// loops), and on per_cta_alloc (rows 5-8: one variable, one use) the
// allocations were half of distmem's instructions. roomS holds
// per_cta_alloc's one deduction, roomM rmem_uniform's two (rows 9-11:
// five uses), roomD shfl_xor's two with desugared loops (row 15: six
// uses, four loops). A room is chosen by the counts of variables and
// deductions and whether any argument has distributed units (gpucheck's
// UnitArgs), not by a walk of the accesses: uses or desugared loops
// past its arrays are made apart (Check). The rooms' size classes hold
// several to a span (TestRoomSizeClasses: a room of shfl_xor's in the
// 2688-byte class, three to a span, refilled the allocator's cache
// every third check). A larger analysis makes each array apart, as
// before. TestRoomsMatchApart compares the two ways.
const (
	roomSVars, roomSDeds, roomSUses = 2, 1, 2
	roomMVars, roomMDeds, roomMUses = 8, 2, 6
	roomDVars, roomDDeds, roomDUses = 8, 3, 8
	roomDLoops                      = 4 // desugared loops
)

type roomS struct {
	r       Result
	ptrs    [2 * roomSVars]*Deduction
	ds      [roomSDeds]Deduction
	triples [roomSUses]Triple
	list    [roomSUses]*Triple
}

type roomM struct {
	r       Result
	ptrs    [2 * roomMVars]*Deduction
	ds      [roomMDeds]Deduction
	triples [roomMUses]Triple
	list    [roomMUses]*Triple
}

type roomD struct {
	r       Result
	ptrs    [2 * roomDVars]*Deduction
	ds      [roomDDeds]Deduction
	triples [roomDUses]Triple
	list    [roomDUses]*Triple
	iters   [roomDLoops]*gpucheck.Iter
	synth   [roomDLoops]gpucheck.Iter
}

// roomsOff makes every check make its arrays apart (set by the tests
// that compare the two ways).
var roomsOff bool

// newRoom makes a room for an analysis of nv variables, n (at least
// one) of which it concerns, when they fit one (else all are nil).
func newRoom(g *gpucheck.Result, nv, n int) (*roomS, *roomM, *roomD) {
	switch {
	case g.UnitArgs() > 0:
		if nv <= roomDVars && n <= roomDDeds {
			return nil, nil, new(roomD)
		}
	case nv <= roomSVars && n <= roomSDeds:
		return new(roomS), nil, nil
	case nv <= roomMVars && n <= roomMDeds:
		return nil, new(roomM), nil
	}
	return nil, nil, nil
}
