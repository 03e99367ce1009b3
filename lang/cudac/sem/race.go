package sem

// Race detection (seed 004 §3.1, extended to global memory, inter-block,
// inter-kernel and host/device accesses). Every byte of a checked object has
// a cell: the last write and the reads since it. An access is stamped with
// where it happened; hb decides whether an earlier access is ordered before
// the current one, so the verdict does not depend on the schedule the
// interpreter happened to pick.

// stamp identifies one access.
type stamp struct {
	agent  int32 // 0: host; s+1: stream s (an agent runs its operations in order)
	clock  int32 // the agent's clock when the access happened
	block  int32 // linear block id, -1 on the host or a copy engine
	tid    int32 // linear thread id in the block
	epoch  int32 // barrier epoch of the block
	wepoch int32 // __syncwarp epoch of the warp
	pos    int32
	atomic bool
	write  bool
	valid  bool
}

type cell struct {
	w stamp
	r []stamp
}

// accessCtx is the ordering context of a running thread.
type accessCtx struct {
	agent int32
	clock int32
	vc    []int32 // what the agent has synchronized with
}

func vcGet(vc []int32, i int32) int32 {
	if int(i) < len(vc) {
		return vc[i]
	}
	return 0
}

func vcJoin(dst []int32, src []int32) []int32 {
	for len(dst) < len(src) {
		dst = append(dst, 0)
	}
	for i, v := range src {
		if v > dst[i] {
			dst[i] = v
		}
	}
	return dst
}

// hb reports whether access a happens before the current access b made in ctx.
func hb(a, b *stamp, ctx *accessCtx) bool {
	if a.agent == b.agent && a.clock == b.clock {
		if a.agent == 0 || a.block < 0 {
			return true // host program order; a copy runs as one sequential agent
		}
		if a.block != b.block {
			return false // blocks of one grid are unordered (no grid-wide barrier)
		}
		if a.tid == b.tid {
			return true
		}
		if a.epoch < b.epoch {
			return true // a __syncthreads separates them
		}
		return a.tid/32 == b.tid/32 && a.wepoch < b.wepoch
	}
	return vcGet(ctx.vc, a.agent) > a.clock
}

// raceCheck records an access of n bytes at off of o and reports races.
func (m *Machine) raceCheck(t *Thread, o *Object, off, n int, write, atomic bool, pos int32) {
	if o.Space == SpaceLocal || o.Space == SpaceAny {
		return
	}
	if o.shadow == nil {
		o.shadow = make([]cell, len(o.Data))
	}
	b := t.stampOf(pos, write, atomic)
	ctx := t.ctx
	for i := off; i < off+n; i++ {
		c := &o.shadow[i]
		if c.w.valid && !hb(&c.w, &b, ctx) && !(c.w.atomic && atomic) {
			m.reportRace(o, i, &c.w, &b)
		}
		if write {
			for k := range c.r {
				r := &c.r[k]
				if !hb(r, &b, ctx) && !(r.atomic && atomic) {
					m.reportRace(o, i, r, &b)
				}
			}
			c.w = b
			c.r = c.r[:0]
			continue
		}
		// keep only the reads not ordered before this one: if r happens
		// before b, any later write racing with r also races with b.
		k := 0
		for _, r := range c.r {
			if !hb(&r, &b, ctx) {
				c.r[k] = r
				k++
			}
		}
		c.r = append(c.r[:k], b)
	}
}

func (t *Thread) stampOf(pos int32, write, atomic bool) stamp {
	s := stamp{agent: t.ctx.agent, clock: t.ctx.clock, block: -1, tid: -1, pos: pos, write: write, atomic: atomic, valid: true}
	if b := t.block; b != nil {
		s.block = b.id
		s.tid = t.tid
		s.epoch = b.epoch
		s.wepoch = b.wepoch[t.tid/32]
	}
	return s
}

func (m *Machine) who(s *stamp) string {
	if s.agent == 0 {
		return "the host"
	}
	if s.block < 0 {
		return "an asynchronous copy"
	}
	g := m.gridOf(s.agent, s.clock)
	if g == nil {
		return "a device thread"
	}
	b := g.gdim.Unlinear(int(s.block))
	th := g.bdim.Unlinear(int(s.tid))
	return "thread " + dimStr(th, g.bdim) + " of block " + dimStr(b, g.gdim) + " (kernel " + g.fn.Name + ")"
}

func (m *Machine) reportRace(o *Object, off int, a, b *stamp) {
	key := [2]int32{a.pos, b.pos}
	if key[0] > key[1] {
		key[0], key[1] = key[1], key[0]
	}
	if m.races[key] {
		return
	}
	m.races[key] = true
	kind := func(s *stamp) string {
		k := "read"
		if s.write {
			k = "write"
		}
		if s.atomic {
			k = "atomic " + k
		}
		return k
	}
	where := o.Space.String() + " memory"
	if o.Name != "" {
		where += " " + o.Name
	}
	d := m.diags.Errorf(m.pos(b.pos), "C0501", "data race on %s (byte %d): %s by %s conflicts with an unordered %s by %s",
		where, off, kind(b), m.who(b), kind(a), m.who(a))
	d.Note(m.pos(a.pos), "the other access: %s by %s", kind(a), m.who(a))
}
