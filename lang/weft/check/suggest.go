package check

import (
	"sort"
	"strings"
)

// didYouMean returns ` (did you mean X?)` for the candidate closest to name
// by edit distance (at most a third of the name's length, at least 1 for
// names of two letters or more), or "".
func didYouMean(name string, candidates []string) string {
	best, bestD := "", 0
	limit := len(name) / 3
	if len(name) >= 2 {
		limit = max(limit, 1)
	}
	sort.Strings(candidates)
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		if d <= limit && (best == "" || d < bestD) {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + best + "?)"
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and transpositions of adjacent letters.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// namesInScope lists the names visible at this point of the proc.
func (c *checker) namesInScope() []string {
	if c.names.n == 0 { // the open names are declared's alone (linearNames)
		out := make([]string, 0, len(c.declared)+c.globals.n)
		for _, d := range c.declared {
			out = append(out, d.name)
		}
		return append(out, c.globals.keys()...)
	}
	return append(c.names.keys(), c.globals.keys()...)
}
