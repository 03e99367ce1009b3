package syntax

import (
	"math"
	"strconv"
	"strings"
)

// parseIntLit reads a C integer constant and returns its value and its
// type by C99 6.4.4.1: the first of int, long, long long (with u: unsigned
// ...) that holds it; octal and hex constants may also take the unsigned
// types.
func parseIntLit(s string) (uint64, string, bool) {
	body := strings.TrimRight(s, "uUlL")
	suf := strings.ToLower(s[len(body):])
	unsigned := strings.Contains(suf, "u")
	longs := strings.Count(suf, "l")
	if len(suf) > 3 || longs > 2 {
		return 0, "", false
	}
	base := 10
	switch {
	case strings.HasPrefix(body, "0x") || strings.HasPrefix(body, "0X"):
		base = 16
		body = body[2:]
	case strings.HasPrefix(body, "0b") || strings.HasPrefix(body, "0B"):
		base = 2
		body = body[2:]
	case len(body) > 1 && body[0] == '0':
		base = 8
		body = body[1:]
	}
	body = strings.ReplaceAll(body, "'", "")
	v, err := strconv.ParseUint(body, base, 64)
	if err != nil || body == "" {
		return 0, "", false
	}
	dec := base == 10
	var typ string
	switch {
	case longs == 0 && !unsigned && v <= math.MaxInt32:
		typ = "int"
	case longs == 0 && (unsigned || !dec) && v <= math.MaxUint32:
		typ = "unsigned int"
	case longs <= 1 && !unsigned && v <= math.MaxInt64:
		typ = "long"
	case longs <= 1 && (unsigned || !dec):
		typ = "unsigned long"
	case !unsigned && v <= math.MaxInt64:
		typ = "long long"
	default:
		typ = "unsigned long long"
	}
	return v, typ, true
}

// parseFloatLit reads a C floating constant; float is true for an f suffix.
func parseFloatLit(s string) (v float64, float bool, ok bool) {
	body := s
	if n := len(body); n > 0 && (body[n-1] == 'f' || body[n-1] == 'F') && !strings.HasPrefix(body, "0x") && !strings.HasPrefix(body, "0X") {
		body, float = body[:n-1], true
	} else if n > 0 && (body[n-1] == 'f' || body[n-1] == 'F') && strings.ContainsAny(body, "pP") {
		body, float = body[:n-1], true
	} else if n > 0 && (body[n-1] == 'l' || body[n-1] == 'L') {
		body = body[:n-1]
	}
	v, err := strconv.ParseFloat(body, 64)
	if err != nil {
		if ne, ok2 := err.(*strconv.NumError); !ok2 || ne.Err != strconv.ErrRange {
			return 0, false, false
		}
	}
	if float {
		v = float64(float32(v))
	}
	return v, float, true
}

// unescape decodes the body of a string or character literal (without
// quotes).
func unescape(s string) (string, bool) {
	if !strings.Contains(s, "\\") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			return "", false
		}
		switch c = s[i]; c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := 0
			j := 0
			for ; j < 3 && i < len(s) && s[i] >= '0' && s[i] <= '7'; j++ {
				v = v*8 + int(s[i]-'0')
				i++
			}
			i--
			b.WriteByte(byte(v))
		case 'x':
			v := 0
			j := i + 1
			for ; j < len(s) && isHex(s[j]); j++ {
				v = v*16 + hexVal(s[j])
			}
			if j == i+1 {
				return "", false
			}
			i = j - 1
			b.WriteByte(byte(v))
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'v':
			b.WriteByte(11)
		case 'e':
			b.WriteByte(27)
		case '\\', '\'', '"', '?':
			b.WriteByte(c)
		default:
			return "", false
		}
	}
	return b.String(), true
}

func isHex(c byte) bool { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') }
func hexVal(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case c >= 'a':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// charValue is the int value of a character constant like 'a' or '\n'.
func charValue(lit string) (int64, bool) {
	if len(lit) < 3 || lit[0] != '\'' || lit[len(lit)-1] != '\'' {
		return 0, false
	}
	s, ok := unescape(lit[1 : len(lit)-1])
	if !ok || len(s) == 0 {
		return 0, false
	}
	// a plain char is signed, as on the x86 and ARM ABIs nvcc targets
	return int64(int8(s[len(s)-1])), true
}
