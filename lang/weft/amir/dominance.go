package amir

// pendsCover reports whether a record with observed arrive counts old
// dominates, on its p component (r.p of Definition 5.3), a record with
// observed counts nw: every cell of nw has an entry in old with a count
// no greater. AWAIT (Fig. 22) augments a record iff some entry of its p has
// the awaited cell and a count <= Max, so then every Await that augments
// the new record augments the old one too; witnessed Arrives (addPend)
// lower both on the same cells, which keeps the relation. Old entries on
// other cells only make old more visible. A cell of nw absent from old is
// not covered: with `instr(...) >> bar` on a barrier reallocated in a loop
// (or any other change of cell between executions of one statement), the
// old record pends on a cell that an Await of the new cell does not
// release, so dropping it would hide its hazard.
func pendsCover(old, nw []pend) bool {
	for _, n := range nw {
		ok := false
		for _, o := range old {
			if o.cell == n.cell && o.count <= n.count {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
