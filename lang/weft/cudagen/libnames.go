package cudagen

import "weft.dev/weft/lang/weft/lib"

// A Generate looks up a few of the library's memories and sync
// timelines by name many times (every Fence tests its
// timelines against up to seven qualitative timelines (since stop 34 by
// their bits, lib.KnownQuals), every access to a
// device allocation reads its memory): each name is looked up in the
// library's map once per Generate and kept in a short list searched in
// place, not hashed again (issue 13, stop 32: the library's maps were a
// twentieth of the CheckOnly pass on per_cta_alloc). The library does not
// change during a Generate.

// nameCache holds up to len(names) lookups of one map; more are looked up
// in the map each time.
type nameCache[T any] struct {
	n     int
	names [8]string
	vals  [8]T
}

// get is m[name], from the list when name was looked up before.
func (c *nameCache[T]) get(m map[string]T, name string) T {
	for i := 0; i < c.n; i++ {
		if c.names[i] == name {
			return c.vals[i]
		}
	}
	v := m[name]
	if c.n < len(c.names) {
		c.names[c.n], c.vals[c.n] = name, v
		c.n++
	}
	return v
}

// libNames are a Generate's lookups of the library's tables.
type libNames struct {
	mems nameCache[*lib.Memory]
	tls  nameCache[*lib.SyncTL]
}

// memory is g.lib.Memories[name].
func (g *gen) memory(name string) *lib.Memory { return g.names.mems.get(g.lib.Memories, name) }

// syncTL is g.lib.Timelines[name].
func (g *gen) syncTL(name string) *lib.SyncTL { return g.names.tls.get(g.lib.Timelines, name) }
