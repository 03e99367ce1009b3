package check

import "fmt"

// Level is a level of the compute hierarchy, ordered thread < block < grid
// (seed 001 §3.2; Bundl's h ::= Grid | Block | Thread).
type Level int

const (
	Thread Level = iota
	Block
	Grid
	anyLevel // broader than everything: the perspective of a literal
)

func (l Level) String() string {
	switch l {
	case Thread:
		return "thread"
	case Block:
		return "block"
	case Grid:
		return "grid"
	}
	return "any"
}

// Persp is a perspective level[n]. Warp sugar is resolved: warp[k] is
// thread[32k], a warpgroup thread[128] (seed 001 §3.2).
type Persp struct {
	Level Level
	N     int
}

// Any is broader than every perspective: literals and constants vary at no
// frequency at all.
var Any = Persp{Level: anyLevel, N: 1}

func (p Persp) String() string {
	if p.Level == anyLevel {
		return "any"
	}
	return fmt.Sprintf("%s[%d]", p.Level, p.N)
}

// AtLeast reports whether p is at least as broad as q: a broader level, or
// the same level with q.N dividing p.N (seed 001 §3.2, the lexicographic
// reading; Bundl's appendix ordering, which asks n1 | n2 across levels too,
// would reject thread[3] ≤ block[1] and is not used).
func (p Persp) AtLeast(q Persp) bool {
	if p.Level != q.Level {
		return p.Level > q.Level
	}
	if p.Level == anyLevel {
		return true
	}
	return q.N > 0 && p.N%q.N == 0
}

// Narrower reports whether p is strictly narrower than q.
func (p Persp) Narrower(q Persp) bool { return q.AtLeast(p) && p != q }

// meet returns the narrower of two comparable perspectives (the perspective
// of a value computed from both). Incomparable pairs (thread[2], thread[3])
// meet at their gcd.
func meet(p, q Persp) Persp {
	if p.AtLeast(q) {
		return q
	}
	if q.AtLeast(p) {
		return p
	}
	if p.Level != q.Level {
		if p.Level < q.Level {
			return p
		}
		return q
	}
	return Persp{Level: p.Level, N: gcd(p.N, q.N)}
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
