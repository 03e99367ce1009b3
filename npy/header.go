package npy

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// parseHeader reads the header dict numpy writes: a Python dict literal
// with exactly the keys 'descr' (a type string), 'fortran_order' (True or
// False) and 'shape' (a tuple of non-negative integers), in any order,
// with optional trailing commas, padded with spaces and a newline.
func parseHeader(s string) (*Header, error) {
	p := &hparser{s: s}
	p.skip()
	if !p.eat('{') {
		return nil, p.errf("want '{' at the start of the dict")
	}
	h := &Header{}
	seen := map[string]bool{}
	for {
		p.skip()
		if p.eat('}') {
			break
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if seen[key] {
			return nil, p.errf("key %q given twice", key)
		}
		seen[key] = true
		p.skip()
		if !p.eat(':') {
			return nil, p.errf("want ':' after %q", key)
		}
		p.skip()
		switch key {
		case "descr":
			if p.peek() == '[' {
				return nil, p.errf("structured dtypes are not supported")
			}
			v, err := p.str()
			if err != nil {
				return nil, err
			}
			if h.Dtype, err = ParseDtype(v); err != nil {
				return nil, err
			}
		case "fortran_order":
			switch {
			case strings.HasPrefix(p.s[p.i:], "True"):
				h.Fortran, p.i = true, p.i+4
			case strings.HasPrefix(p.s[p.i:], "False"):
				h.Fortran, p.i = false, p.i+5
			default:
				return nil, p.errf("fortran_order is not True or False")
			}
		case "shape":
			if h.Shape, err = p.tuple(); err != nil {
				return nil, err
			}
		default:
			return nil, p.errf("unknown key %q", key)
		}
		p.skip()
		if p.eat(',') {
			continue
		}
		p.skip()
		if !p.eat('}') {
			return nil, p.errf("want ',' or '}' after the value of %q", key)
		}
		break
	}
	if strings.TrimSpace(p.s[p.i:]) != "" {
		return nil, p.errf("text after the dict")
	}
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return nil, fmt.Errorf("no %q key", k)
		}
	}
	if h.Shape == nil {
		h.Shape = []int{}
	}
	return h, nil
}

type hparser struct {
	s string
	i int
}

func (p *hparser) errf(format string, args ...any) error {
	return fmt.Errorf("at byte %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *hparser) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *hparser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *hparser) eat(c byte) bool {
	if p.peek() == c {
		p.i++
		return true
	}
	return false
}

// str reads a quoted string without escapes (none occur in a header).
func (p *hparser) str() (string, error) {
	q := p.peek()
	if q != '\'' && q != '"' {
		return "", p.errf("want a quoted string")
	}
	j := strings.IndexByte(p.s[p.i+1:], q)
	if j < 0 {
		return "", p.errf("unterminated string")
	}
	v := p.s[p.i+1 : p.i+1+j]
	if strings.IndexByte(v, '\\') >= 0 {
		return "", p.errf("escapes in strings are not supported")
	}
	p.i += j + 2
	return v, nil
}

// tuple reads (), (n,), (n, m, ...) of non-negative integers.
func (p *hparser) tuple() ([]int, error) {
	if !p.eat('(') {
		return nil, p.errf("shape is not a tuple")
	}
	dims := []int{}
	for {
		p.skip()
		if p.eat(')') {
			return dims, nil
		}
		j := p.i
		if p.peek() == '-' {
			return nil, p.errf("negative dimension in shape")
		}
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		n, err := strconv.ParseInt(p.s[j:p.i], 10, 64)
		if err != nil || n > math.MaxInt32*int64(1<<16) {
			return nil, p.errf("dimension %q is not a non-negative integer below 2^47", p.s[j:p.i])
		}
		p.eat('L') // a Python 2 long
		dims = append(dims, int(n))
		p.skip()
		if p.eat(',') {
			continue
		}
		p.skip()
		if !p.eat(')') {
			return nil, p.errf("want ',' or ')' in shape")
		}
		return dims, nil
	}
}
