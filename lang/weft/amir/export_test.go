package amir

// HWUniformPlain makes hwUniform the plain test-then-apply loop it was
// written from (true) or the fused one (false), and returns how many
// calls the plain one answered, for TestHWUniformMatchesPlain.
func HWUniformPlain(on bool) *int {
	n := new(int)
	if !on {
		hwUniformRef = nil
		return n
	}
	hwUniformRef = func(m *Machine, r *record) bool {
		*n++
		return hwUniformPlain(m, r)
	}
	return n
}

// hwUniformPlain is hwUniform as written before stop 28 fused the test
// with the replay: an event is a test (a Fence or Arrive of r's task that
// some but not all of r's creator threads execute, which r witnesses by
// neither its creator nor a grant) that stops the replay, or is applied.
func hwUniformPlain(m *Machine, r *record) bool {
	n := int32(len(m.log))
	for i := r.stamp; i < n; i++ {
		e := &m.log[i]
		if (e.kind == KFence || e.kind == KArrive) && e.pre.Has(r.q) && (r.reach == allTasks || e.exec.task == allTasks || e.exec.task == r.reach) &&
			m.intersects(e.exec, r.creator) && !m.subset(r.creator, e.exec) && !m.witnessByGrant(r, e) {
			r.stamp = i
			return false
		}
		m.apply(r, e)
	}
	r.stamp = n
	return true
}
