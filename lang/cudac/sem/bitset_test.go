package sem

import (
	"math/rand"
	"testing"
)

// TestBitsetWords checks the word-level extract and assign against the
// bit-by-bit definition, at every alignment.
func TestBitsetWords(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for iter := 0; iter < 2000; iter++ {
		size := 1 + rng.Intn(400)
		b := newBitset(size)
		for i := range b {
			b[i] = rng.Uint64()
		}
		off := rng.Intn(size)
		n := rng.Intn(size-off) + 1
		r := b.extract(off, n)
		for i := 0; i < n; i++ {
			if r.get(i) != b.get(off+i) {
				t.Fatalf("extract(%d, %d) bit %d", off, n, i)
			}
		}
		for i := n; i < len(r)*64; i++ {
			if r.get(i) {
				t.Fatalf("extract(%d, %d) sets bit %d past n", off, n, i)
			}
		}
		d := newBitset(size)
		for i := range d {
			d[i] = rng.Uint64()
		}
		want := append(bitset(nil), d...)
		dst := rng.Intn(size - n + 1)
		for i := 0; i < n; i++ {
			if r.get(i) {
				want.set(dst + i)
			} else {
				want[(dst+i)>>6] &^= 1 << ((dst + i) & 63)
			}
		}
		d.assign(dst, n, r)
		for i := range d {
			if d[i] != want[i] {
				t.Fatalf("assign(%d, %d): word %d = %x, want %x", dst, n, i, d[i], want[i])
			}
		}
	}
}

// TestReadSet checks compactReads' set of reads against a map, on lists
// that take the bitmap (few positions, close segments) and the hash
// table (many positions, or segments far apart).
func TestReadSet(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	m := &Machine{}
	for iter := 0; iter < 300; iter++ {
		n := 1 + rng.Intn(600)
		npos := 1 + rng.Intn(6)
		spread := uint32(1 + rng.Intn(1<<uint(rng.Intn(20))))
		base := uint32(rng.Intn(1 << 20))
		mk := func() stamp {
			return stamp{seg: base + uint32(rng.Int63n(int64(spread))), pf: uint32(rng.Intn(npos))<<4 | sfValid}
		}
		first := mk()
		lst := make([]stamp, n)
		for i := range lst {
			lst[i] = mk()
		}
		rs := m.readSet(first, lst)
		want := map[stamp]bool{}
		for _, r := range append([]stamp{first}, lst...) {
			if got := rs.add(r); got != want[r] {
				t.Fatalf("iter %d: add(%v) = %v, want %v (bitmap: %v)", iter, r, got, want[r], rs.npf >= 0)
			}
			want[r] = true
		}
	}
}
