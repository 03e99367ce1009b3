package cudagen

// chainsMay is a necessary condition of chains(ops, ta, tn), tested
// before chains's search of every order (issue 13, stop 38: the search
// was most of stripDist on shfl_xor, whose windows over a middle
// dimension chain out of order, and it is made for every prefix of an
// access's indices, most of which chain in no order). In a chain each
// operator (t0 -> t1) is applied where the count is t0 and leaves t1,
// and each {-e, 0} divides the count by e, so the count telescopes:
// ta * prod(t1) = tn * prod(t0) * prod(e). chainsMay is false only where
// that equality fails; it answers true, leaving the question to chains,
// for more than chainsMayOps operators or a count not in [1, 2^15] (the
// products then stay below 2^60).
func chainsMay(ops [][2]int, ta, tn int) bool {
	const lim = 1 << 15
	if len(ops) > chainsMayOps || ta < 1 || tn < 1 || ta > lim || tn > lim {
		return true
	}
	l, r := ta, tn
	for _, op := range ops {
		t0, t1 := op[0], op[1]
		if t0 < 0 {
			t0, t1 = -t0, 1 // a whole-slice window
		}
		if t0 < 1 || t1 < 1 || t0 > lim || t1 > lim {
			return true
		}
		l *= t1
		r *= t0
	}
	return l == r
}

// chainsMayOps is the most operators chainsMay tests.
const chainsMayOps = 3
