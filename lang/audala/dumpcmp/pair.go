package dumpcmp

import (
	"strconv"
	"strings"

	"weft.dev/weft/lang/audala/check"
)

// outs lists, for each vertex of sd, the vertices its lines reference
// (row by row, parameter by parameter; null references are left out).
func outs(sd *side) [][]int {
	o := make([][]int, len(sd.keys))
	for v, rows := range sd.rows {
		for _, i := range rows {
			ln := sd.lines[i]
			for j, p := range ln.s.Params {
				if p.Type.Kind == check.Ref && ln.vals[j] != 0 {
					o[v] = append(o[v], sd.verts[vkey{p.Type.Struct, ln.vals[j]}])
				}
			}
		}
	}
	return o
}

// pairByRefs builds a candidate renaming from the stable colours cr, cg:
// a ref vertex is paired, once every instance it references is paired,
// with an unpaired got vertex of its colour that references exactly those
// images; what is left (instances on reference cycles) is paired in label
// order within its class. Why: colour refinement cannot tell apart
// instances that are alike (the created Nodes of one step with equal
// values), and pairing them in label order fails on every renaming but
// one; individualising them one by one costs a refinement each (a forest
// of 20000 created instances ran past Budget). Following the references
// pairs any forest of created instances in a few linear passes. The
// caller still verifies the result line by line, so this is only a guess.
func (c *search) pairByRefs(cr, cg []int, classR, classG map[int][]int) []int {
	or, og := outs(c.r), outs(c.g)
	var b strings.Builder
	key := func(col int, out []int, img func(int) int) string {
		b.Reset()
		b.WriteString(strconv.Itoa(col))
		for _, t := range out {
			b.WriteByte(' ')
			b.WriteString(strconv.Itoa(img(t)))
		}
		return b.String()
	}
	id := func(w int) int { return w }
	bucket := map[string][]int{}
	for w := len(cg) - 1; w >= 0; w-- { // popped from the end: label order
		k := key(cg[w], og[w], id)
		bucket[k] = append(bucket[k], w)
	}
	pi := make([]int, len(cr))
	for v := range pi {
		pi[v] = -1
	}
	used := make([]bool, len(cg))
	for progress := true; progress; {
		progress = false
		for v := range cr {
			if pi[v] >= 0 {
				continue
			}
			ready := true
			for _, t := range or[v] {
				if pi[t] < 0 {
					ready = false
					break
				}
			}
			if !ready {
				continue
			}
			k := key(cr[v], or[v], func(t int) int { return pi[t] })
			ws := bucket[k]
			for len(ws) > 0 && used[ws[len(ws)-1]] {
				ws = ws[:len(ws)-1]
			}
			if len(ws) == 0 {
				bucket[k] = ws
				continue
			}
			pi[v], used[ws[len(ws)-1]] = ws[len(ws)-1], true
			bucket[k] = ws[:len(ws)-1]
			progress = true
		}
		c.work += len(cr)
	}
	for k, mr := range classR {
		var free []int
		for _, w := range classG[k] {
			if !used[w] {
				free = append(free, w)
			}
		}
		for _, v := range mr {
			if pi[v] < 0 && len(free) > 0 {
				pi[v], used[free[0]] = free[0], true
				free = free[1:]
			}
		}
		for _, v := range mr {
			if pi[v] < 0 { // the classes' sizes differ: no renaming here
				return nil
			}
		}
	}
	return pi
}
