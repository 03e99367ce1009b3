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

// prefixChains is stripDist's test of each prefix of an access's
// operators, chainsInOrder(ops, ta, tn) || chainsMay(ops, ta, tn) &&
// chains(ops, ta, tn), with the folds of chainsInOrder and chainsMay
// kept as the operators are appended (one step per operator, not the
// fold of the whole prefix again: each folds left to right and reads
// nothing else; once chainsInOrder's fails, or chainsMay's meets a count
// out of its bounds, no later operator changes that) and chains's last
// answer kept
// (memo: a kernel's accesses to two memories of one shape through the
// same iterators ask the same search; shfl_xor's tmp and rmemA windows).
// The tests of every prefix were a third of stripDist on shfl_xor (issue
// 13, stop 42). ord is the fold of ops without its last operator and is
// left the fold of ops. TestPrefixChains compares it with the three
// functions on every prefix of a grid of lists.
func prefixChains(ops [][2]int, ta, tn int, ord *inOrder, memo *chainsMemo) bool {
	op := ops[len(ops)-1]
	// Both folds take op whatever the answer (a later prefix reads them).
	may := ord.may(op, len(ops))
	if ord.step(op) && ord.cur == tn {
		return true
	}
	return may && memo.chains(ops, ta, tn)
}

// inOrder is chainsInOrder's fold: the count cur after the operators so
// far, failed once one does not apply; and chainsMay's: its products l
// and r, open once chainsMay answers true whatever follows (a count out
// of its bounds, or more than chainsMayOps operators). newInOrder starts
// both.
type inOrder struct {
	cur    int
	failed bool
	open   bool
	l, r   int
}

// newInOrder is the folds of no operator from ta to tn.
func newInOrder(ta, tn int) inOrder {
	const lim = 1 << 15
	return inOrder{cur: ta, l: ta, r: tn, open: ta < 1 || tn < 1 || ta > lim || tn > lim}
}

// step folds op into chainsInOrder's fold; false when it has failed.
func (o *inOrder) step(op [2]int) bool {
	switch {
	case o.failed:
	case op[0] < 0 && o.cur%(-op[0]) == 0:
		o.cur /= -op[0]
	case op[0] == o.cur:
		o.cur = op[1]
	default:
		o.failed = true
	}
	return !o.failed
}

// may folds op, the n-th operator, into chainsMay's products and is
// chainsMay's answer for the n operators.
func (o *inOrder) may(op [2]int, n int) bool {
	const lim = 1 << 15
	if o.open || n > chainsMayOps {
		o.open = true
		return true
	}
	t0, t1 := op[0], op[1]
	if t0 < 0 {
		t0, t1 = -t0, 1
	}
	if t0 < 1 || t1 < 1 || t0 > lim || t1 > lim {
		o.open = true
		return true
	}
	o.l *= t1
	o.r *= t0
	return o.l == o.r
}

// chainsMemo is chains's last answer: ok for the operators ops[:n] from
// ta to tn (n 0: none yet).
type chainsMemo struct {
	ops    [4][2]int
	n      int
	ta, tn int
	ok     bool
}

// chains is chains(ops, ta, tn), the last answer where the question is
// the last one (chains is a function of its arguments).
func (m *chainsMemo) chains(ops [][2]int, ta, tn int) bool {
	if m.n > 0 && m.n == len(ops) && m.ta == ta && m.tn == tn && sameOps(m.ops[:m.n], ops) {
		return m.ok
	}
	ok := chains(ops, ta, tn)
	if len(ops) <= len(m.ops) {
		m.n, m.ta, m.tn, m.ok = len(ops), ta, tn, ok
		copy(m.ops[:], ops)
	}
	return ok
}

// sameOps reports whether a and b, of one length, are the same operators.
func sameOps(a, b [][2]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
