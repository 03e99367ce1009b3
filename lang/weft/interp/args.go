package interp

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Bind turns `weft run` arguments NAME=VALUE into the argument map of Call.
// A control parameter takes an integer (bool: True/False/1/0), a data
// scalar a number, and an array parameter one of: zeros, ones, rand
// (uniform in [-1, 1) from seed, in row-major order), iota (0, 1, 2, ...
// in row-major order), or a .npy file name read by load. An array without
// an assignment is zeros. The second result lists the array parameters in
// declaration order (for --out).
func (p *Proc) Bind(assigns [][2]string, seed uint64, load func(path string) (*Array, error)) (map[string]any, []string, error) {
	args := map[string]any{}
	given := map[string]string{}
	for _, a := range assigns {
		if _, dup := given[a[0]]; dup {
			return nil, nil, fmt.Errorf("%s given twice", a[0])
		}
		given[a[0]] = a[1]
	}
	ctrl := map[string]int64{}
	known := map[string]bool{}
	for _, q := range p.Params {
		known[q.Name] = true
		v, ok := given[q.Name]
		switch q.Kind {
		case KindSize, KindIndex:
			if !ok {
				continue // reported below if a shape needs it, else by Call
			}
			n, err := strconv.ParseInt(v, 0, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("%s=%s: %s is a %s, want an integer", q.Name, v, q.Name, kindName(q.Kind))
			}
			args[q.Name], ctrl[q.Name] = n, n
		case KindBool:
			if !ok {
				continue
			}
			switch v {
			case "True", "true", "1":
				args[q.Name], ctrl[q.Name] = true, 1
			case "False", "false", "0":
				args[q.Name], ctrl[q.Name] = false, 0
			default:
				return nil, nil, fmt.Errorf("%s=%s: want True or False", q.Name, v)
			}
		case KindScalar:
			if !ok {
				continue
			}
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("%s=%s: want a number", q.Name, v)
			}
			args[q.Name] = f
		}
	}
	for name := range given {
		if !known[name] {
			return nil, nil, fmt.Errorf("%s has no parameter %s", p.Name, name)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x5745_4654)) // "WEFT"
	var arrays []string
	// The arrays together stay within the memory limit (elements at their
	// type's width, as cells stores them).
	limit, used := p.prog.opts.maxMemory(), int64(0)
	overLimit := func(name string, bytes int64) error {
		if used += bytes; used > limit {
			return fmt.Errorf("%s: the array arguments take %d bytes with %s, more than the memory limit of %d bytes (--max-memory BYTES raises it)", p.Name, used, name, limit)
		}
		return nil
	}
	for _, q := range p.Params {
		if !q.IsArray() {
			continue
		}
		arrays = append(arrays, q.Name)
		v := given[q.Name]
		if v == "" {
			v = "zeros"
		}
		if strings.HasSuffix(v, ".npy") {
			a, err := load(v)
			if err != nil {
				return nil, nil, fmt.Errorf("%s=%s: %v", q.Name, v, err)
			}
			if err := overLimit(q.Name, int64(a.Len())*q.Elem.width()); err != nil {
				return nil, nil, err
			}
			args[q.Name] = a.Convert(q.Elem)
			continue
		}
		shape, err := p.Shape(q.Name, ctrl)
		if err != nil {
			return nil, nil, err
		}
		n := 1
		for _, d := range shape {
			if n *= d; n > 1<<31 {
				return nil, nil, fmt.Errorf("%s has shape %v: more than 2^31 elements", q.Name, shape)
			}
		}
		if err := overLimit(q.Name, int64(n)*q.Elem.width()); err != nil {
			return nil, nil, err
		}
		a := NewArray(q.Elem, shape)
		switch v {
		case "zeros":
			a.Fill(0)
		case "ones":
			a.Fill(1)
		case "iota":
			for i := range a.Len() {
				a.Set(i, float64(i))
			}
		case "rand":
			for i := range a.Len() {
				a.Set(i, rng.Float64()*2-1)
			}
		default:
			return nil, nil, fmt.Errorf("%s=%s: want FILE.npy, zeros, ones, rand or iota", q.Name, v)
		}
		args[q.Name] = a
	}
	return args, arrays, nil
}

func kindName(k Kind) string {
	if k == KindSize {
		return "size"
	}
	return "index"
}
