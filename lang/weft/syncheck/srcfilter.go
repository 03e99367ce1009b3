package syncheck

import (
	"unsafe"

	"weft.dev/weft/lang/weft/syntax"
)

// srcFilter is a set of statement addresses as 256 bits, one per hash:
// an address it does not hold is certainly not among them, one it holds
// may be. srcIndex's first question for most statements is whether they
// have a Src yet, and the answer is almost always no: the search that
// gave it, over every Src made (a small kernel's, up to srcLinear, each
// compared as an interface), had been the largest exclusive cost of
// per_cta_alloc's Convert (issue 13, stop 35). Addresses are only
// hashed, never turned back into pointers.
type srcFilter [4]uint64

// srcFilterOff makes srcIndex search without the filter (tests: the
// plain search it answers for).
var srcFilterOff bool

// srcBit is address a's bit: its bits above the allocation granule,
// folded.
func srcBit(a uintptr) uint { return uint((a>>4)^(a>>12)) & 255 }

func (f *srcFilter) add(a uintptr) {
	if a != 0 {
		b := srcBit(a)
		f[b>>6] |= 1 << (b & 63)
	}
}

func (f *srcFilter) has(a uintptr) bool {
	b := srcBit(a)
	return f[b>>6]&(1<<(b&63)) != 0
}

// stmtAddr is the address of st's node (0 for a kind not listed, which
// srcIndex then searches for).
func stmtAddr(st syntax.Stmt) uintptr {
	switch x := st.(type) {
	case *syntax.Assign:
		return uintptr(unsafe.Pointer(x))
	case *syntax.CallStmt:
		return uintptr(unsafe.Pointer(x))
	case *syntax.For:
		return uintptr(unsafe.Pointer(x))
	case *syntax.Alloc:
		return uintptr(unsafe.Pointer(x))
	case *syntax.Fence:
		return uintptr(unsafe.Pointer(x))
	case *syntax.Arrive:
		return uintptr(unsafe.Pointer(x))
	case *syntax.Await:
		return uintptr(unsafe.Pointer(x))
	case *syntax.With:
		return uintptr(unsafe.Pointer(x))
	case *syntax.If:
		return uintptr(unsafe.Pointer(x))
	case *syntax.Free:
		return uintptr(unsafe.Pointer(x))
	}
	return 0
}
