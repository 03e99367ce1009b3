package bundl

import "strconv"

func itoa(n int) string { return strconv.Itoa(n) }

func parseInt(s string) (int64, error) { return strconv.ParseInt(s, 0, 64) }

func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }

// aligned reports whether the code perspective at st runs a collective of
// n threads: it holds whole units of n threads (a broader perspective, a
// block included, replicates the collective over its aligned
// sub-collectives: seed 001 §3.6, "functions can be called with a broader
// code perspective than necessary, accounting for alignment"), and the
// thread's unit is aligned in the hardware's numbering (§3.2: warps and
// warpgroups start at multiples of their size). The unit is the one whose
// lanes are st.pos % n.
func (th *thread) aligned(st *state, n int) bool {
	return th.size(st.code)%n == 0 && (th.t-st.pos%n)%n == 0
}
