package gpucheck

// sameName is a == b for the names a scope lookup compares (Scope.Iter,
// Lookup, declared), testing the last byte before calling the runtime's
// compare: a kernel's iterators and arrays are names of one length that
// differ at the end (t4, t2, t1; rmemA, d_A and h_A), each lookup walks a
// loop nest comparing them, and the compares' calls were a twentieth of
// the GPU checker on shfl_xor (issue 13, stop 37).
//
// The first byte too, and no call for a name of one or two bytes, which
// the two decide (issue 13, stop 46): shfl_xor's lookups of d_A passed
// h_A, and its loops' t4, t2, t1 and s are each one compare.
func sameName(a, b string) bool {
	n := len(a)
	if n != len(b) {
		return false
	}
	if n == 0 {
		return true
	}
	return a[n-1] == b[n-1] && a[0] == b[0] && (n <= 2 || a == b)
}
