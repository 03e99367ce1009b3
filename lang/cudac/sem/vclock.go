package sem

// Sparse vector clocks for graph launches (graph_order.go runGraphIn,
// issue 15 item 6).

// vcEnt is one entry of a vector clock: agent a at clock c.
type vcEnt struct{ a, c int32 }

// nodeClock is the vector clock base joined with ents. base is shared
// between clocks and never written; ents is copied before it is changed.
type nodeClock struct {
	base []int32
	ents []vcEnt
}

// maxEnts is the number of entries from which a nodeClock is made dense
// again: a chain of nodes adds one per node, and every lookup scans them.
const maxEnts = 16

func (nc nodeClock) get(i int32) int32 {
	v := vcGet(nc.base, i)
	for _, e := range nc.ents {
		if e.a == i {
			v = max(v, e.c)
		}
	}
	return v
}

func (nc nodeClock) clone() nodeClock {
	return nodeClock{base: nc.base, ents: append([]vcEnt(nil), nc.ents...)}
}

// set returns nc with agent a at clock c (at least c: clocks only grow
// along a node's dependencies). nc's ents must be its own.
func (nc nodeClock) set(a, c int32) nodeClock {
	for k, e := range nc.ents {
		if e.a == a {
			nc.ents[k].c = max(e.c, c)
			return nc
		}
	}
	nc.ents = append(nc.ents, vcEnt{a, c})
	if len(nc.ents) > maxEnts {
		return nodeClock{base: nc.dense()}
	}
	return nc
}

// dense returns nc as a vector of its own.
func (nc nodeClock) dense() []int32 {
	d := append([]int32(nil), nc.base...)
	for _, e := range nc.ents {
		d = vcSet(d, e.a, max(vcGet(d, e.a), e.c))
	}
	return d
}

// join returns the join of nc (whose ents are its own) and o.
func (nc nodeClock) join(o nodeClock) nodeClock {
	if !sameVec(nc.base, o.base) {
		nc = nodeClock{base: o.joinInto(nc.dense())}
		return nc
	}
	for _, e := range o.ents {
		nc = nc.set(e.a, e.c)
	}
	return nc
}

// joinInto joins nc into the dense vector dst, which it may write, and
// returns it.
func (nc nodeClock) joinInto(dst []int32) []int32 {
	if !sameVec(dst, nc.base) {
		dst = vcJoin(dst, nc.base)
	}
	for _, e := range nc.ents {
		dst = vcSet(dst, e.a, max(vcGet(dst, e.a), e.c))
	}
	return dst
}

// sameVec reports whether x and y are the same vector (the same memory),
// so that one holds every entry of the other.
func sameVec(x, y []int32) bool {
	return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
}

// get is the clock of agent i in ctx's vector clock.
func (ctx *accessCtx) get(i int32) int32 {
	v := vcGet(ctx.vc, i)
	for _, e := range ctx.ext {
		if e.a == i {
			v = max(v, e.c)
		}
	}
	return v
}

// dense returns ctx's vector clock as a vector of its own.
func (ctx *accessCtx) dense() []int32 {
	return nodeClock{base: ctx.vc, ents: ctx.ext}.dense()
}
