package lib

// ScanItem is one assignment a scanf conversion makes: an integer (Kind
// 'i' signed, 'u' unsigned) or a floating value ('f') of Size bytes, a
// string ('s': the bytes, to which the caller adds the terminator; 'c':
// exactly the bytes), or the count of bytes consumed so far ('n').
type ScanItem struct {
	Kind  byte
	Size  int
	Int   uint64
	Float float64
	Str   []byte
}

// Scan runs the conversions of format over in (C11 7.21.6.2): it returns
// the assignments in order, the bytes consumed, the number of assigned
// conversions (the function's result), and eof when the input ended before
// the first conversion (the result is then EOF). %n and suppressed
// conversions (%*d) assign nothing counted.
func Scan(in []byte, format string) (items []ScanItem, consumed int, count int, eof bool) {
	i := 0 // input position
	f := 0
	matched := false
	for f < len(format) {
		c := format[f]
		if isSpace(c) {
			for f < len(format) && isSpace(format[f]) {
				f++
			}
			for i < len(in) && isSpace(in[i]) {
				i++
			}
			continue
		}
		if c != '%' || (f+1 < len(format) && format[f+1] == '%') {
			if c == '%' {
				f++
				for i < len(in) && isSpace(in[i]) {
					i++
				}
			}
			if i >= len(in) {
				return items, i, count, !matched
			}
			if in[i] != format[f] {
				return items, i, count, false
			}
			i++
			f++
			continue
		}
		// a conversion specification
		f++
		suppress := false
		if f < len(format) && format[f] == '*' {
			suppress = true
			f++
		}
		width := 0
		for f < len(format) && format[f] >= '0' && format[f] <= '9' {
			width = width*10 + int(format[f]-'0')
			f++
		}
		size := 4
		fsize := 4
		switch {
		case f+1 < len(format) && format[f] == 'h' && format[f+1] == 'h':
			size, f = 1, f+2
		case f < len(format) && format[f] == 'h':
			size, f = 2, f+1
		case f+1 < len(format) && format[f] == 'l' && format[f+1] == 'l':
			size, fsize, f = 8, 8, f+2
		case f < len(format) && (format[f] == 'l' || format[f] == 'j' || format[f] == 'z' || format[f] == 't' || format[f] == 'q'):
			size, fsize, f = 8, 8, f+1
		case f < len(format) && format[f] == 'L':
			size, fsize, f = 8, 8, f+1
		}
		if f >= len(format) {
			return items, i, count, false
		}
		conv := format[f]
		f++
		if conv != 'c' && conv != '[' && conv != 'n' {
			for i < len(in) && isSpace(in[i]) {
				i++
			}
		}
		if conv == 'n' {
			if !suppress {
				items = append(items, ScanItem{Kind: 'n', Size: size, Int: uint64(i)})
			}
			continue
		}
		if i >= len(in) {
			return items, i, count, !matched
		}
		lim := len(in)
		if width > 0 && i+width < lim {
			lim = i + width
		}
		field := in[i:lim]
		var it ScanItem
		n := 0
		switch conv {
		case 'd', 'i', 'u', 'x', 'X', 'o':
			base := map[byte]int{'d': 10, 'i': 0, 'u': 10, 'x': 16, 'X': 16, 'o': 8}[conv]
			var v uint64
			v, n, _ = StrToInt(field, base, conv == 'd' || conv == 'i', 64)
			kind := byte('u')
			if conv == 'd' || conv == 'i' {
				kind = 'i'
			}
			it = ScanItem{Kind: kind, Size: size, Int: v}
		case 'f', 'e', 'g', 'E', 'G', 'a':
			var v float64
			v, n, _ = StrToFloat(field)
			it = ScanItem{Kind: 'f', Size: fsize, Float: v}
		case 's':
			for n < len(field) && !isSpace(field[n]) {
				n++
			}
			it = ScanItem{Kind: 's', Str: append([]byte(nil), field[:n]...)}
		case 'c':
			w := width
			if w == 0 {
				w = 1
			}
			if len(field) < w && width == 0 {
				w = len(field)
			}
			n = w
			if n > len(field) {
				n = len(field)
			}
			it = ScanItem{Kind: 'c', Str: append([]byte(nil), field[:n]...)}
		case '[':
			neg := false
			if f < len(format) && format[f] == '^' {
				neg = true
				f++
			}
			start := f
			if f < len(format) && format[f] == ']' {
				f++
			}
			for f < len(format) && format[f] != ']' {
				f++
			}
			set := format[start:f]
			f++
			inSet := func(b byte) bool {
				for k := 0; k < len(set); k++ {
					if k+2 < len(set) && set[k+1] == '-' {
						if b >= set[k] && b <= set[k+2] {
							return true
						}
						k += 2
						continue
					}
					if set[k] == b {
						return true
					}
				}
				return false
			}
			for n < len(field) && inSet(field[n]) != neg {
				n++
			}
			it = ScanItem{Kind: 's', Str: append([]byte(nil), field[:n]...)}
		default:
			return items, i, count, false
		}
		if n == 0 {
			return items, i, count, false // a matching failure
		}
		i += n
		matched = true
		if !suppress {
			items = append(items, it)
			count++
		}
	}
	return items, i, count, false
}
