package check

// symTab maps names to symbols: the proc's open scopes (checker.names)
// and the module-level values (checker.globals). It replaces two Go maps
// of string keys whose lookups, with their string hashing, were a fifth
// of checking a small kernel (issue 13, stop 32: 13.5 K of row 15's 96 K
// instructions were mapaccess1_faststr alone, most of it lookup, declare
// and pop). Names are short (1 to 20 bytes), so a byte-wise FNV-1a hash
// and linear probing over a table kept at most half full find a name in
// a few dozen instructions.
//
// The zero symTab is empty and ready to use.
type symTab struct {
	slots []symSlot // len is 0 or a power of two
	n     int       // entries in use
}

type symSlot struct {
	name string
	sym  *Symbol // nil: the slot is free
	hash uint32
}

// hashName is FNV-1a of s.
func hashName(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// get returns the symbol of name, or nil.
func (t *symTab) get(name string) *Symbol {
	if t.n == 0 {
		return nil
	}
	return t.getHashed(name, hashName(name))
}

// getHashed is get of name whose hash is h (hashName).
func (t *symTab) getHashed(name string, h uint32) *Symbol {
	if t.n == 0 {
		return nil
	}
	mask := uint32(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.sym == nil {
			return nil
		}
		if s.hash == h && s.name == name {
			return s.sym
		}
	}
}

// set makes name's symbol sym (sym != nil), replacing any.
func (t *symTab) set(name string, sym *Symbol) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	h := hashName(name)
	mask := uint32(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.sym == nil {
			*s = symSlot{name, sym, h}
			t.n++
			return
		}
		if s.hash == h && s.name == name {
			s.sym = sym
			return
		}
	}
}

// insert makes name's symbol sym (sym != nil) unless name has one, which
// it returns (prev) without a change; h is name's hash, for delHashed.
// It is get followed by set, hashing and probing once (stop 41: a
// declaration asked both).
func (t *symTab) insert(name string, sym *Symbol) (prev *Symbol, h uint32) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	h = hashName(name)
	mask := uint32(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.sym == nil {
			*s = symSlot{name, sym, h}
			t.n++
			return nil, h
		}
		if s.hash == h && s.name == name {
			return s.sym, h
		}
	}
}

// grow doubles the table (16 slots at first: a proc's open names).
func (t *symTab) grow() {
	old := t.slots
	t.slots = make([]symSlot, max(16, 2*len(old)))
	mask := uint32(len(t.slots) - 1)
	for _, s := range old {
		if s.sym == nil {
			continue
		}
		i := s.hash & mask
		for t.slots[i].sym != nil {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// del removes name, if present. The entries after it in its probe run
// move back where their own runs allow (backward-shift deletion), so
// that no lookup is cut short by the freed slot.
func (t *symTab) del(name string) { t.delHashed(name, hashName(name)) }

// delHashed is del of name whose hash is h (insert's answer).
func (t *symTab) delHashed(name string, h uint32) {
	if t.n == 0 {
		return
	}
	mask := uint32(len(t.slots) - 1)
	i := h & mask
	for {
		s := &t.slots[i]
		if s.sym == nil {
			return
		}
		if s.hash == h && s.name == name {
			break
		}
		i = (i + 1) & mask
	}
	t.n--
	for j := (i + 1) & mask; t.slots[j].sym != nil; j = (j + 1) & mask {
		// The entry at j may fill the hole at i unless its home slot k
		// lies cyclically in (i, j].
		k := t.slots[j].hash & mask
		if i <= j && (i < k && k <= j) || i > j && (i < k || k <= j) {
			continue
		}
		t.slots[i] = t.slots[j]
		i = j
	}
	t.slots[i] = symSlot{}
}

// clear empties the table, keeping its slots.
func (t *symTab) clear() {
	if t.n > 0 {
		clear(t.slots)
		t.n = 0
	}
}

// keys lists the names in the table (in no particular order).
func (t *symTab) keys() []string {
	out := make([]string, 0, t.n)
	for _, s := range t.slots {
		if s.sym != nil {
			out = append(out, s.name)
		}
	}
	return out
}
