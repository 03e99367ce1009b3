package frontend

import (
	"errors"
	"strconv"
	"strings"
)

// ByteSize is a flag value of a byte count: digits with an optional K, M or
// G (binary) suffix, as the resource-limit flags take it (--max-input 16M,
// --max-memory 4G).
type ByteSize int64

func (b *ByteSize) String() string { return FormatBytes(int64(*b)) }

func (b *ByteSize) Set(s string) error {
	n, err := ParseBytes(s)
	if err != nil {
		return err
	}
	*b = ByteSize(n)
	return nil
}

// ParseBytes reads a non-negative byte count with an optional K, M or G
// (binary) suffix.
func ParseBytes(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, s[:len(s)-1]
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || s[0] == '+' || n > (1<<62)/mult {
		return 0, errors.New("want a byte count such as 1000000, 64M or 2G")
	}
	return n * mult, nil
}

// FormatBytes writes n with the largest K, M or G suffix that divides it.
func FormatBytes(n int64) string {
	for _, u := range []struct {
		s string
		m int64
	}{{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}} {
		if n != 0 && n%u.m == 0 {
			return strconv.FormatInt(n/u.m, 10) + u.s
		}
	}
	return strconv.FormatInt(n, 10)
}
