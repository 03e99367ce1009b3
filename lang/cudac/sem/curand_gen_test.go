package sem

import "testing"

// Philox4x32-10 against the known-answer vectors Random123 publishes with
// the algorithm (kat_vectors: counter, key -> output).
func TestPhiloxKnownAnswers(t *testing.T) {
	for _, c := range []struct {
		ctr  [4]uint32
		key  [2]uint32
		want [4]uint32
	}{
		{[4]uint32{0, 0, 0, 0}, [2]uint32{0, 0}, [4]uint32{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
		{[4]uint32{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, [2]uint32{0xffffffff, 0xffffffff}, [4]uint32{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
		{[4]uint32{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, [2]uint32{0xa4093822, 0x299f31d0}, [4]uint32{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
	} {
		if got := philox(c.ctr, c.key); got != c.want {
			t.Errorf("philox(%08x, %08x) = %08x, want %08x", c.ctr, c.key, got, c.want)
		}
	}
}

// The XORWOW jump (a power of the xorshift's matrix) equals stepping.
func TestXorwowJump(t *testing.T) {
	v := [5]uint32{123456789, 362436069, 521288629, 88675123, 5783321}
	for _, n := range []uint64{1, 2, 3, 37, 1000, 4097} {
		g := curandGen{kind: crXorwow, v: v}
		for i := uint64(0); i < n; i++ {
			g.next()
		}
		if got := xorwowJump(v, n, 0); got != g.v {
			t.Errorf("jump %d: %08x, stepping gives %08x", n, got, g.v)
		}
	}
	// 2^k steps from the k-th power: 3 * 2^5 = 96 steps
	g := curandGen{kind: crXorwow, v: v}
	for i := 0; i < 96; i++ {
		g.next()
	}
	if got := xorwowJump(v, 3, 5); got != g.v {
		t.Errorf("jump 3<<5: %08x, want %08x", got, g.v)
	}
	// skipahead(n) moves the Weyl counter n steps too
	a, b := curandGen{kind: crXorwow}, curandGen{kind: crXorwow}
	a.init(42, 0, 0)
	b.init(42, 0, 0)
	for i := 0; i < 1000; i++ {
		a.next()
	}
	b.skip(1000)
	if a.next() != b.next() {
		t.Error("skipahead(1000) differs from 1000 draws")
	}
	// Philox: skip within and across counter blocks
	p, q := curandGen{kind: crPhilox}, curandGen{kind: crPhilox}
	p.init(7, 0, 0)
	q.init(7, 0, 0)
	for i := 0; i < 6; i++ {
		p.next()
	}
	q.skip(6)
	for i := 0; i < 5; i++ {
		if x, y := p.next(), q.next(); x != y {
			t.Errorf("philox skip: draw %d: %08x != %08x", i, x, y)
		}
	}
}
