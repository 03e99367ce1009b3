package lib

import (
	"math"
	"strconv"
	"strings"
)

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func digitVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return 99
}

// StrToInt is strtol/strtoll (signed) and strtoul/strtoull (unsigned) of
// C11 7.22.1.4 for 64-bit results: it returns the value, the number of
// bytes consumed (0 when no conversion was performed, as *endptr == s),
// and whether the value was out of range (then clamped, errno ERANGE).
// bits is the width of the result type (32 or 64). An unsigned
// conversion of "-n" is the negation of n in the unsigned type, as C says.
func StrToInt(s []byte, base int, signed bool, bits int) (v uint64, n int, overflow bool) {
	if base != 0 && (base < 2 || base > 36) {
		return 0, 0, false
	}
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	if (base == 0 || base == 16) && i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && i+2 < len(s) && digitVal(s[i+2]) < 16 {
		i += 2
		base = 16
	} else if base == 0 {
		if i < len(s) && s[i] == '0' {
			base = 8
		} else {
			base = 10
		}
	}
	start := i
	var mag uint64
	over := false
	for i < len(s) {
		d := digitVal(s[i])
		if d >= base {
			break
		}
		if mag > (math.MaxUint64-uint64(d))/uint64(base) {
			over = true
		} else {
			mag = mag*uint64(base) + uint64(d)
		}
		i++
	}
	if i == start {
		return 0, 0, false
	}
	if signed {
		max := uint64(1)<<(bits-1) - 1
		if neg {
			if over || mag > max+1 {
				return uint64(-int64(max)-1) & mask(bits), i, true
			}
			return uint64(-int64(mag)), i, false
		}
		if over || mag > max {
			return max, i, true
		}
		return mag, i, false
	}
	max := mask(bits)
	if over || mag > max {
		return max, i, true
	}
	if neg {
		return (-mag) & max, i, false
	}
	return mag, i, false
}

func mask(bits int) uint64 {
	if bits >= 64 {
		return math.MaxUint64
	}
	return 1<<bits - 1
}

// StrToFloat is strtod (C11 7.22.1.3): decimal and hexadecimal floating
// constants, infinity and nan, after leading white space. It returns the
// value, the bytes consumed (0: no conversion) and whether the value
// overflowed or underflowed (ERANGE).
func StrToFloat(s []byte) (v float64, n int, rangeErr bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	start := i
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	rest := strings.ToLower(string(s[i:min(len(s), i+8)]))
	switch {
	case strings.HasPrefix(rest, "infinity"):
		i += 8
	case strings.HasPrefix(rest, "inf"):
		i += 3
	case strings.HasPrefix(rest, "nan"):
		i += 3
		if i < len(s) && s[i] == '(' {
			j := i + 1
			for j < len(s) && (digitVal(s[j]) < 36 || s[j] == '_') {
				j++
			}
			if j < len(s) && s[j] == ')' {
				i = j + 1
			}
		}
	default:
		hex := i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X')
		j := i
		if hex {
			j += 2
		}
		digits := 0
		isDigit := func(c byte) bool {
			if hex {
				return digitVal(c) < 16
			}
			return c >= '0' && c <= '9'
		}
		for j < len(s) && isDigit(s[j]) {
			j++
			digits++
		}
		if j < len(s) && s[j] == '.' {
			j++
			for j < len(s) && isDigit(s[j]) {
				j++
				digits++
			}
		}
		if digits == 0 {
			if hex {
				// "0x" with no hex digits: the "0" converts
				return 0, i + 1, false
			}
			return 0, 0, false
		}
		e := byte('e')
		if hex {
			e = 'p'
		}
		if j < len(s) && (s[j] == e || s[j] == e-32) {
			k := j + 1
			if k < len(s) && (s[k] == '+' || s[k] == '-') {
				k++
			}
			if k < len(s) && s[k] >= '0' && s[k] <= '9' {
				for k < len(s) && s[k] >= '0' && s[k] <= '9' {
					k++
				}
				j = k
			}
		}
		i = j
	}
	text := string(s[start:i])
	if t := strings.ToLower(strings.TrimLeft(text, "+-")); strings.HasPrefix(t, "nan") {
		return math.NaN(), i, false
	}
	if hex := strings.IndexAny(text, "xX"); hex >= 0 && !strings.ContainsAny(text, "pP") {
		text += "p0" // Go requires the binary exponent of a hex float
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, i, true
		}
		return 0, 0, false
	}
	return f, i, false
}
