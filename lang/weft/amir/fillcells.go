package amir

// fillCellsLoop is the length below which fillCells stores cell by cell:
// a copy costs a call into memmove, about as much as 8-16 stores.
const fillCellsLoop = 32

// fillCells sets every cell of cs to c (an allocation's empty cells:
// both lists empty, the version of the incarnation). Past fillCellsLoop
// cells it doubles the filled prefix with copy: memmove stores 32-64
// bytes an instruction where the loop stored 16 bytes in about three
// (rmem_uniform's allocations fill about 2 000 cells a check, 6 K
// instructions of Machine.alloc; issue 13, stop 35: grid35).
func fillCells(cs []cell, c cell) {
	if len(cs) < fillCellsLoop {
		for i := range cs {
			cs[i] = c
		}
		return
	}
	for i := range cs[:fillCellsLoop] {
		cs[i] = c
	}
	for k := fillCellsLoop; k < len(cs); k *= 2 {
		copy(cs[k:], cs[:k])
	}
}
