package gpucheck

// sameName is a == b for the names a scope lookup compares (Scope.Iter,
// Lookup, declared), testing the last byte before calling the runtime's
// compare: a kernel's iterators and arrays are names of one length that
// differ at the end (t4, t2, t1; rmemA, d_A and h_A), each lookup walks a
// loop nest comparing them, and the compares' calls were a twentieth of
// the GPU checker on shfl_xor (issue 13, stop 37).
func sameName(a, b string) bool {
	return len(a) == len(b) && (len(a) == 0 || a[len(a)-1] == b[len(a)-1]) && a == b
}
