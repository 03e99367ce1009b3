package interp

import (
	"fmt"
	"math"
)

// Mismatch describes how an array differs from a reference (Compare).
type Mismatch struct {
	Index    []int   // first element outside the tolerance
	Got      float64 // the reference's value there (e.g. the GPU's)
	Want     float64 // this array's value there (the sequential meaning)
	Count    int     // elements outside the tolerance
	MaxAbs   float64 // largest absolute difference over all elements
	ShapeErr string  // set instead when the shapes differ
}

func (m *Mismatch) String() string {
	if m.ShapeErr != "" {
		return m.ShapeErr
	}
	return fmt.Sprintf("%d elements differ beyond the tolerance; first at %v: %v, sequential meaning %v (max abs difference %g)",
		m.Count, m.Index, m.Got, m.Want, m.MaxAbs)
}

// Compare checks other (e.g. a GPU result) against a elementwise:
// |other - a| <= atol + rtol*|a|, NaNs equal only to NaNs. It returns nil
// when every element is within the tolerance.
func (a *Array) Compare(other *Array, rtol, atol float64) *Mismatch {
	if len(a.Shape) != len(other.Shape) {
		return &Mismatch{ShapeErr: fmt.Sprintf("shape %v, want %v", other.Shape, a.Shape)}
	}
	for i := range a.Shape {
		if a.Shape[i] != other.Shape[i] {
			return &Mismatch{ShapeErr: fmt.Sprintf("shape %v, want %v", other.Shape, a.Shape)}
		}
	}
	var m Mismatch
	first := -1
	for i := range a.Len() {
		want, got := a.Value(i), other.Value(i)
		var ok bool
		if want != want || got != got {
			ok = want != want && got != got // NaN matches only NaN
			if !ok {
				m.MaxAbs = math.Inf(1)
			}
		} else {
			d := math.Abs(got - want)
			m.MaxAbs = math.Max(m.MaxAbs, d)
			ok = d <= atol+rtol*math.Abs(want)
		}
		if !ok {
			m.Count++
			if first < 0 {
				first = i
				m.Got, m.Want = got, want
			}
		}
	}
	if m.Count == 0 {
		return nil
	}
	m.Index = make([]int, len(a.Shape))
	for d := len(a.Shape) - 1; d >= 0; d-- {
		m.Index[d] = first % a.Shape[d]
		first /= a.Shape[d]
	}
	return &m
}
