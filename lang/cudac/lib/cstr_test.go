package lib

import (
	"math"
	"testing"
)

func TestStrToInt(t *testing.T) {
	for _, c := range []struct {
		s      string
		base   int
		signed bool
		bits   int
		v      uint64
		n      int
		over   bool
	}{
		{"  42xyz", 10, true, 64, 42, 4, false},
		{"-17", 0, true, 64, uint64(math.MaxUint64 - 16), 3, false},
		{"0x1F", 0, true, 64, 31, 4, false},
		{"0x", 0, true, 64, 0, 1, false},
		{"017", 0, true, 64, 15, 3, false},
		{"z", 36, false, 64, 35, 1, false},
		{"abc", 10, true, 64, 0, 0, false},
		{"99999999999999999999", 10, true, 64, math.MaxInt64, 20, true},
		{"-1", 10, false, 64, math.MaxUint64, 2, false},
		{"4294967296", 10, false, 32, math.MaxUint32, 10, true},
		{"-2147483649", 10, true, 32, uint64(1<<32-1<<31) | 0xffffffff00000000, 11, true},
	} {
		v, n, over := StrToInt([]byte(c.s), c.base, c.signed, c.bits)
		if c.bits == 32 && c.signed && over {
			v = uint64(int64(int32(v)))
		}
		if v != c.v || n != c.n || over != c.over {
			t.Errorf("StrToInt(%q, %d) = %d, %d, %v; want %d, %d, %v", c.s, c.base, v, n, over, c.v, c.n, c.over)
		}
	}
}

func TestStrToFloat(t *testing.T) {
	for _, c := range []struct {
		s string
		v float64
		n int
	}{
		{"1.5e3x", 1500, 5},
		{" -0.25", -0.25, 6},
		{"1e", 1, 1},
		{".5", 0.5, 2},
		{"0x1.8p1", 3, 7},
		{"0x10", 16, 4},
		{"inf", math.Inf(1), 3},
		{"-Infinity!", math.Inf(-1), 9},
		{"e5", 0, 0},
		{"1e400", math.Inf(1), 5},
	} {
		v, n, _ := StrToFloat([]byte(c.s))
		if v != c.v || n != c.n {
			t.Errorf("StrToFloat(%q) = %g, %d; want %g, %d", c.s, v, n, c.v, c.n)
		}
	}
	if v, n, _ := StrToFloat([]byte("nan(123)")); !math.IsNaN(v) || n != 8 {
		t.Errorf("nan(123): %g %d", v, n)
	}
}
