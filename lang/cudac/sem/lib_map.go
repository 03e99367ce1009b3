package sem

import (
	"bytes"
	"math"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// <map> and <set>: std::map<K, V> and std::set<K> (C++17 [map], [set]),
// and std::unordered_map and std::unordered_set modeled as the ordered
// ones (key order is one of the iteration orders the standard allows an
// unordered container; g++ may print another). The container is a
// std::vector of its elements (std::pair<const K, V> with members first
// and second, or K) kept sorted by key with std::less (<; std::string
// keys compare as char_traits<char>::compare, bytewise): so size, empty,
// clear, begin/end, iteration (it->first, ++it, range for) and deep
// copies are the vector's, and lookups are binary searches. Insertion
// and erasure move the later elements, so they invalidate iterators
// (a real map keeps them valid: a program that keeps an iterator across
// an insertion gets the element now at that place, not a diagnostic).
// Keys are integers, floating values, pointers, std::string or a
// std::pair of them (pair.go in syntax: compared lexicographically, first
// then second, as its operator< does); another key type and a custom
// comparator are C0309.
//
// std::multimap and std::multiset ([multimap], [multiset]) are the same
// sorted vector holding equal keys side by side: insert places the new
// element after those with an equal key (the order [associative.reqmts]
// requires) and returns its iterator, find and lower_bound give the first
// of them, upper_bound the one after the last, count their number,
// equal_range the pair (lower_bound, upper_bound), erase(key) removes them
// all. The key kind passed to the run time carries the multi flag
// (akMulti), so the builtins are the map's.

// assocKind says how keys compare (__assoc_* builtins).
const (
	akSigned = iota
	akUnsigned
	akFloat
	akDouble
	akString
	// akPair | k1 | n1<<4 | off2<<12 | k2<<20 | n2<<24: a std::pair key
	// whose members are keys of kinds k1 and k2 and sizes n1 and n2, the
	// second at offset off2
	akPair = 1 << 32
	// akMulti marks a multimap or multiset: equal keys may repeat
	akMulti = 1 << 40
)

type assocInfo struct {
	isMap bool
	multi bool   // multimap, multiset
	name  string // map, set, unordered_map, unordered_set
	key   *Type
	val   *Type // nil for a set
}

// assocOf reports the associative container t is, or nil.
func (c *compiler) assocOf(t *Type) *assocInfo {
	if t == nil || t.Kind != Struct || t.std != stdVector || !strings.HasPrefix(t.Name, "std::") {
		return nil
	}
	for _, n := range []string{"map", "set", "unordered_map", "unordered_set", "multimap", "multiset"} {
		if strings.HasPrefix(t.Name, "std::"+n+"<") {
			ai := &assocInfo{name: n, isMap: strings.HasSuffix(n, "map"), multi: strings.HasPrefix(n, "multi")}
			if ai.isMap {
				ai.key, ai.val = t.stdElem.Fields[0].Type, t.stdElem.Fields[1].Type
			} else {
				ai.key = t.stdElem
			}
			return ai
		}
	}
	return nil
}

// assocType resolves std::map<K, V>, std::set<K> and the unordered ones;
// nil for another name.
func (c *compiler) assocType(te *syntax.TypeExpr) *Type {
	if te.Name == "std::chrono::duration" || te.Name == "std::ratio" {
		return c.chronoDurationType(te) // lib_chrono.go
	}
	if te.Name == "std::deque" {
		return c.dequeType(te) // lib_deque.go
	}
	name := strings.TrimPrefix(te.Name, "std::")
	isMap := name == "map" || name == "unordered_map" || name == "multimap"
	if !isMap && name != "set" && name != "unordered_set" && name != "multiset" || name == te.Name {
		return nil
	}
	want := 1
	if isMap {
		want = 2
	}
	if len(te.TArgs) < want {
		c.errorf(te.Pos, "C0313", "std::%s needs %d template arguments", name, want)
		return tInt
	}
	if len(te.TArgs) > want {
		c.errorf(te.Pos, "C0309", "std::%s with a comparator, hash or allocator argument is not modeled (keys are ordered by <)", name)
		return tInt
	}
	key := c.resolve(te.TArgs[0])
	if !c.scalarKey(key) && c.pairKey(key) == nil {
		c.errorf(te.Pos, "C0309", "std::%s with key type %s is not modeled (keys are integers, floating values, pointers, std::string or a std::pair of them)", name, key)
		return tInt
	}
	elem := key
	tname := "std::" + name + "<" + key.String()
	var val *Type
	if isMap {
		val = c.resolve(te.TArgs[1])
		if !val.complete || val.Kind == Void || val.Kind == Array {
			c.errorf(te.Pos, "C0309", "std::%s with value type %s is not modeled", name, val)
			return tInt
		}
		tname += ", " + val.String()
	}
	tname += ">"
	if c.vectors == nil {
		c.vectors = map[string]*Type{}
	}
	ck := name + ":" + typeKey(key)
	if val != nil {
		ck += ":" + typeKey(val)
	}
	if t := c.vectors[ck]; t != nil {
		return t
	}
	if isMap {
		// the element is pair<K, V>, the class make_pair gives (so
		// value_type, *it and a program's pair are one type), or a struct
		// of the two when the program has no pair template
		if elem = c.pairOf(key, val); elem == nil {
			elem = structOf("std::pair<"+key.String()+", "+val.String()+">", "first", key, "second", val)
		}
	}
	t := structOf(tname, "__data", ptrTo(elem), "__size", tULong, "__cap", tULong)
	t.std, t.stdElem = stdVector, elem
	c.vectors[ck] = t
	return t
}

// scalarKey reports whether k is a key compared by one value.
func (c *compiler) scalarKey(k *Type) bool {
	return k.isArith() || k.Kind == Ptr || c.isStd(k, stdString)
}

// pairKey is the two members of a std::pair key of scalar keys, or nil.
func (c *compiler) pairKey(k *Type) []*FieldInfo {
	if k.Kind != Struct || !strings.HasPrefix(k.Name, "struct pair<") || len(k.Fields) != 2 || k.Fields[0].Name != "first" || k.Fields[1].Name != "second" {
		return nil
	}
	if !c.scalarKey(k.Fields[0].Type) || !c.scalarKey(k.Fields[1].Type) || k.Fields[1].Offset >= 256 {
		return nil
	}
	return k.Fields
}

// assocKind is the key kind of container ai for the run time.
func (c *compiler) assocKind(ai *assocInfo) int64 {
	k := c.keyKind(ai.key)
	if ai.multi {
		k |= akMulti
	}
	return k
}

func (c *compiler) keyKind(k *Type) int64 {
	if fs := c.pairKey(k); fs != nil {
		return akPair | c.keyKind(fs[0].Type) | int64(fs[0].Type.size)<<4 | int64(fs[1].Offset)<<12 | c.keyKind(fs[1].Type)<<20 | int64(fs[1].Type.size)<<24
	}
	switch {
	case c.isStd(k, stdString):
		return akString
	case k.Kind == Float:
		return akFloat
	case k.Kind == Double:
		return akDouble
	case k.isInt() && k.isSigned():
		return akSigned
	}
	return akUnsigned
}

// keyTemp pushes the address of a temporary holding key e of type k.
func (c *compiler) keyTemp(k *Type, e syntax.Expr) {
	c.emit(OpTemp, 0, int64(k.size), syntax.PosOf(e))
	c.initFrom(k, e)
}

// assocCall emits builtin name(container, key temp, key kind, key size,
// element size, element layout, extra) with the container address on
// the stack.
func (c *compiler) assocCall(t *Type, ai *assocInfo, name string, key syntax.Expr, extra int64, pos diag.Pos) {
	if key != nil {
		c.keyTemp(ai.key, key)
	} else {
		c.emit(OpConst, 0, 0, pos)
	}
	c.emit(OpConst, 0, c.assocKind(ai), pos)
	c.emit(OpConst, 0, int64(ai.key.size), pos)
	c.emit(OpConst, 0, int64(t.stdElem.size), pos)
	c.emit(OpConst, 0, int64(c.elemLayout(t)), pos)
	c.emit(OpConst, 0, extra, pos)
	c.stdBuiltin(name, 7, pos)
}

// assocIndex compiles m[k] of a map (the container's address is on the
// stack): the value of key k, inserted value-initialized if absent. The
// index of a range for over the container (rangeFor's __range_i) is the
// position instead.
func (c *compiler) assocIndex(t *Type, ai *assocInfo, i syntax.Expr, pos diag.Pos) (lval, bool) {
	if n, ok := i.(*syntax.Name); ok && strings.HasPrefix(n.Name, "__range_i") {
		return lval{}, false
	}
	if !ai.isMap {
		c.errorf(pos, "C0302", "std::%s has no operator[]", ai.name)
		return lval{t: ai.key, slot: -1}, true
	}
	c.assocCall(t, ai, "__assoc_find", i, 1, pos)
	c.emit(OpConst, 0, int64(t.stdElem.Fields[1].Offset), pos)
	c.emit(OpPtrAdd, 1, 0, pos)
	return lval{t: ai.val, slot: -1}, true
}

// assocInit inserts the elements of an initializer list into the
// container whose address is on the stack (kept).
func (c *compiler) assocInit(t *Type, ai *assocInfo, il *syntax.InitList, pos diag.Pos) {
	c.emit(OpDup, 0, 0, pos)
	c.emit(OpMemzero, 0, 24, pos)
	c.emit(OpPop, 0, 0, pos)
	for _, el := range il.Elems {
		c.emit(OpDup, 0, 0, pos)
		c.emit(OpTemp, 0, int64(t.stdElem.size), pos)
		c.initFrom(t.stdElem, el.X)
		c.emit(OpConst, 0, c.assocKind(ai), pos)
		c.emit(OpConst, 0, int64(ai.key.size), pos)
		c.emit(OpConst, 0, int64(t.stdElem.size), pos)
		c.emit(OpConst, 0, int64(c.elemLayout(t)), pos)
		c.emit(OpConst, 0, 0, pos)
		c.stdBuiltin("__assoc_insert", 7, pos)
		c.emit(OpPop, 0, 0, pos)
	}
}

// assocRange compiles the constructor from a range [first, last) of
// pointers or vector iterators to elements (the container's address on
// the stack, kept): each element inserted in turn.
func (c *compiler) assocRange(t *Type, ai *assocInfo, args []syntax.Expr, pos diag.Pos) {
	if len(args) != 2 {
		c.errorf(pos, "C0309", "this constructor of %s is not modeled (default, copy, initializer lists and ranges are)", t)
		return
	}
	for _, a := range args {
		if at := c.typeOf(a, true); at.Kind != Ptr || !sameType(at.Elem, t.stdElem) {
			c.errorf(syntax.PosOf(a), "C0302", "a range of %s for %s, not %s", t.stdElem, t, at)
			return
		}
	}
	c.emit(OpDup, 0, 0, pos)
	c.expr(args[0])
	c.expr(args[1])
	c.emit(OpConst, 0, c.assocKind(ai), pos)
	c.emit(OpConst, 0, int64(ai.key.size), pos)
	c.emit(OpConst, 0, int64(t.stdElem.size), pos)
	c.emit(OpConst, 0, int64(c.elemLayout(t)), pos)
	c.stdBuiltin("__assoc_range", 7, pos)
	c.emit(OpPop, 0, 0, pos)
}

// insertResult is insert's std::pair<iterator, bool> for element type e
// (one type each).
func (c *compiler) insertResult(e *Type) *Type {
	if c.vectors == nil {
		c.vectors = map[string]*Type{}
	}
	key := "insert:" + typeKey(e)
	if t := c.vectors[key]; t != nil {
		return t
	}
	t := c.pairOf(ptrTo(e), tBool)
	if t == nil {
		t = structOf("std::pair<iterator, bool>", "first", ptrTo(e), "second", tBool)
	}
	c.vectors[key] = t
	return t
}

// pairOf is the instance pair<a, b> of <utility>'s class template
// (syntax/pair.go), which std::make_pair and a declared std::pair<...>
// give too, so equal_range's and insert's results and the program's pairs
// of iterators are one type (streamOrderedAllocationP2P assigns one to
// the other); nil when the program has no pair template.
func (c *compiler) pairOf(a, b *Type) *Type {
	if len(c.classTmpls["pair"]) == 0 {
		return nil
	}
	save := c.tmap
	tm := make(map[string]*Type, len(save)+2)
	for k, v := range save {
		tm[k] = v
	}
	tm["__weft_pair_first"], tm["__weft_pair_second"] = a, b
	c.tmap = tm
	defer func() { c.tmap = save }()
	t := c.classInstance(&syntax.TypeExpr{Kind: syntax.TNamed, Name: "pair", TArgs: []*syntax.TypeExpr{
		{Kind: syntax.TNamed, Name: "__weft_pair_first"}, {Kind: syntax.TNamed, Name: "__weft_pair_second"}}})
	// (the model's code stores first and second where a plain struct of
	// the two has them)
	if want := structOf("", "first", a, "second", b); t.Kind != Struct || len(t.Fields) != 2 || t.size != want.size || t.Fields[1].Offset != want.Fields[1].Offset {
		return nil
	}
	return t
}

// rangeResult is equal_range's std::pair<iterator, iterator> for element
// type e (one type each).
func (c *compiler) rangeResult(e *Type) *Type {
	if c.vectors == nil {
		c.vectors = map[string]*Type{}
	}
	key := "range:" + typeKey(e)
	if t := c.vectors[key]; t != nil {
		return t
	}
	t := c.pairOf(ptrTo(e), ptrTo(e))
	if t == nil {
		t = structOf("std::pair<iterator, iterator>", "first", ptrTo(e), "second", ptrTo(e))
	}
	c.vectors[key] = t
	return t
}

// assocMethod compiles the member functions of a map or set that differ
// from the vector's; ok is false for size, empty, clear, begin, end.
func (c *compiler) assocMethod(st *Type, ai *assocInfo, m *syntax.Member, e *syntax.Call) (*Type, bool) {
	pos := e.Pos
	args := e.Args
	recv := func() {
		if m.Arrow {
			c.expr(m.X)
		} else {
			c.lvalue(m.X)
		}
	}
	nargs := func(n int) bool {
		if len(args) != n {
			c.errorf(pos, "C0304", "std::%s::%s takes %d arguments, %d given", ai.name, m.Name, n, len(args))
			c.emit(OpConst, 0, 0, pos)
			return false
		}
		return true
	}
	ep := ptrTo(st.stdElem)
	switch m.Name {
	case "size", "empty", "clear", "begin", "end", "cbegin", "cend":
		return nil, false
	case "find", "lower_bound", "upper_bound":
		if !nargs(1) {
			return ep, true
		}
		recv()
		c.assocCall(st, ai, "__assoc_find", args[0], map[string]int64{"find": 0, "lower_bound": 2, "upper_bound": 3}[m.Name], pos)
		return ep, true
	case "count", "contains":
		if !nargs(1) {
			return tULong, true
		}
		recv()
		c.assocCall(st, ai, "__assoc_find", args[0], 4, pos)
		if m.Name == "contains" {
			return tBool, true
		}
		return tULong, true
	case "at":
		if !ai.isMap || !nargs(1) {
			break
		}
		recv()
		c.assocCall(st, ai, "__assoc_find", args[0], 5, pos)
		c.emit(OpConst, 0, int64(st.stdElem.Fields[1].Offset), pos)
		c.emit(OpPtrAdd, 1, 0, pos)
		return c.load(lval{t: ai.val, slot: -1}, pos), true
	case "insert", "emplace":
		// insert(value) / insert(std::make_pair(k, v)) / emplace(k, v):
		// pair<iterator, bool>, the element with the key and whether it
		// was inserted
		rt := c.insertResult(st.stdElem)
		res := c.newSlot()
		c.emit(OpTemp, 0, int64(rt.size), pos)
		c.emit(OpMemzero, 0, int64(rt.size), pos) // (its padding too: the pair is copied whole)
		c.emit(OpSetLocal, int32(res), 0, pos)
		c.emit(OpPop, 0, 0, pos)
		recv()
		c.emit(OpTemp, 0, int64(st.stdElem.size), pos)
		if len(args) == 1 && ai.isMap {
			// insert(std::make_pair(k, v)) and insert(std::pair<K, V>(k, v))
			if call, ok := args[0].(*syntax.Call); ok && len(call.Args) == 2 {
				if n, ok := call.Fun.(*syntax.Name); ok && (n.Name == "make_pair" || n.Name == "std::make_pair") && c.lookup(n.Name) == nil {
					args = call.Args
				}
			}
		}
		switch {
		case len(args) == 1:
			c.initFrom(st.stdElem, args[0])
		case len(args) == 2 && ai.isMap:
			c.initFrom(st.stdElem, &syntax.InitList{Pos: pos, Elems: []*syntax.InitElem{{X: args[0]}, {X: args[1]}}})
		default:
			c.errorf(pos, "C0304", "std::%s::%s takes the element (or, for a map, its key and value)", ai.name, m.Name)
		}
		c.emit(OpConst, 0, c.assocKind(ai), pos)
		c.emit(OpConst, 0, int64(ai.key.size), pos)
		c.emit(OpConst, 0, int64(st.stdElem.size), pos)
		c.emit(OpConst, 0, int64(c.elemLayout(st)), pos)
		c.emit(OpLocal, int32(res), 0, pos)
		c.stdBuiltin("__assoc_insert", 7, pos)
		if ai.multi {
			return ep, true // a multimap's insert: the new element's iterator
		}
		c.emit(OpPop, 0, 0, pos)
		c.emit(OpLocal, int32(res), 0, pos)
		return rt, true
	case "equal_range":
		// pair<iterator, iterator>: lower_bound and upper_bound
		if !nargs(1) {
			return tInt, true
		}
		rt := c.rangeResult(st.stdElem)
		res := c.newSlot()
		c.emit(OpTemp, 0, int64(rt.size), pos)
		c.emit(OpSetLocal, int32(res), 0, pos)
		c.emit(OpPop, 0, 0, pos)
		for i, mode := range []int64{2, 3} {
			c.emit(OpLocal, int32(res), 0, pos)
			if i == 1 {
				c.emit(OpConst, 0, 8, pos)
				c.emit(OpPtrAdd, 1, 0, pos)
			}
			recv()
			c.assocCall(st, ai, "__assoc_find", args[0], mode, pos)
			c.emit(OpStore, int32(memCode(ep)), 0, pos)
			c.emit(OpPop, 0, 0, pos)
		}
		c.emit(OpLocal, int32(res), 0, pos)
		return rt, true
	case "erase":
		if !nargs(1) {
			return tULong, true
		}
		recv()
		if at := c.typeOf(args[0], true); at.Kind == Ptr && sameType(at.Elem, st.stdElem) {
			// erase(iterator): the iterator after it
			c.expr(args[0])
			c.emit(OpConst, 0, 0, pos)
			c.emit(OpConst, 0, 0, pos)
			c.emit(OpConst, 0, int64(st.stdElem.size), pos)
			c.emit(OpConst, 0, int64(c.elemLayout(st)), pos)
			c.emit(OpConst, 0, 1, pos)
			c.stdBuiltin("__assoc_erase", 7, pos)
			return ep, true
		}
		c.assocCall(st, ai, "__assoc_erase", args[0], 0, pos)
		return tULong, true
	}
	c.errorf(m.Pos, "C0309", "std::%s::%s is not modeled", ai.name, m.Name)
	for _, a := range args {
		c.typeOf(a, true)
	}
	c.emit(OpConst, 0, 0, pos)
	return tInt, true
}

// Run time.

// keyCmp compares the keys at p and q of kind k and size n.
func (m *Machine) keyCmp(t *Thread, p, q uint64, k, n int, pos int32) (int, bool) {
	k &^= akMulti
	if k&akPair != 0 {
		c, good := m.keyCmp(t, p, q, k&15, k>>4&255, pos)
		if !good || c != 0 {
			return c, good
		}
		off := uint64(k >> 12 & 255)
		return m.keyCmp(t, p+off, q+off, k>>20&15, k>>24&255, pos)
	}
	if k == akString {
		x, _, good := m.stdBytes(t, p, 1, pos)
		if !good {
			return 0, false
		}
		y, _, good := m.stdBytes(t, q, 1, pos)
		if !good {
			return 0, false
		}
		return bytes.Compare(x, y), true
	}
	bx, good := m.resolve(t, p, n, pos, false, false)
	if !good {
		return 0, false
	}
	by, good := m.resolve(t, q, n, pos, false, false)
	if !good {
		return 0, false
	}
	x, y := loadN(bx, n), loadN(by, n)
	switch k {
	case akSigned:
		sh := uint(64 - 8*n)
		a, b := int64(x<<sh)>>sh, int64(y<<sh)>>sh
		return cmp3(a < b, a > b), true
	case akFloat:
		a, b := math.Float32frombits(uint32(x)), math.Float32frombits(uint32(y))
		return cmp3(a < b, a > b), true
	case akDouble:
		a, b := math.Float64frombits(x), math.Float64frombits(y)
		return cmp3(a < b, a > b), true
	}
	return cmp3(x < y, x > y), true
}

func cmp3(lt, gt bool) int {
	switch {
	case lt:
		return -1
	case gt:
		return 1
	}
	return 0
}

// assocSearch is the first position whose key is not less than the key
// at kp (upper: not less or equal), and whether that key equals it.
func (m *Machine) assocSearch(t *Thread, data, size, kp uint64, k, n, es int, upper bool, pos int32) (uint64, bool, bool) {
	lo, hi := uint64(0), size
	for lo < hi {
		mid := (lo + hi) / 2
		c, good := m.keyCmp(t, data+mid*uint64(es), kp, k, n, pos)
		if !good {
			return 0, false, false
		}
		if c < 0 || upper && c == 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	eq := false
	if lo < size && !upper {
		c, good := m.keyCmp(t, data+lo*uint64(es), kp, k, n, pos)
		if !good {
			return 0, false, false
		}
		eq = c == 0
	}
	return lo, eq, true
}

// assocBuf names the storage of a map or set: an insertion or erasure
// replaces it and frees the old one, so the run's memory stays linear in
// the container's size, and an iterator or reference kept across one is
// a use after free (C0404) rather than a silent read of a stale copy.
const assocBuf = "(a std::map or std::set's elements before an insertion or erasure moved them: the model keeps them contiguous, so iterators and references do not survive one)"

// assocReplace replaces the elements of the container at p with n
// elements from buf, freeing the old storage.
func (m *Machine) assocReplace(t *Thread, p uint64, buf []byte, n uint64, es int, pos int32) bool {
	old, _, _, good := m.stdHdr(t, p, pos)
	if !good {
		return false
	}
	if n == 0 {
		if !m.stdSetHdr(t, p, 0, 0, 0, pos) {
			return false
		}
	} else {
		if n*uint64(es) >= 1<<31 {
			m.fault(t, pos, "C0403", "a std::map or std::set of %d elements exceeds the model's 2 GiB objects", n)
			return false
		}
		o := m.newObject(int(n)*es, SpaceHost, assocBuf, pos)
		if m.failed {
			return false
		}
		o.Heap = true
		copy(o.Data, buf)
		o.init.setAll()
		if !m.stdSetHdr(t, p, ptrOf(o, 0), n, n, pos) {
			return false
		}
	}
	if id := old >> 32; old != 0 && id < uint64(len(m.objs)) {
		if o := m.objs[id]; o.Heap && !o.Freed && o.Space == SpaceHost && (o.Name == assocBuf || o.Name == "std buffer") {
			m.release(o)
		}
	}
	return true
}

// assocInsertAt inserts a deep copy of the element at src at position i
// of the container at p and returns the new element's address.
func (m *Machine) assocInsertAt(t *Thread, p, src, i uint64, es, layout int, pos int32) (uint64, bool) {
	old, size, good := m.stdBytes(t, p, es, pos)
	if !good {
		return 0, false
	}
	buf := make([]byte, 0, (size+1)*uint64(es))
	buf = append(buf, old[:i*uint64(es)]...)
	buf = append(buf, make([]byte, es)...)
	buf = append(buf, old[i*uint64(es):]...)
	if !m.assocReplace(t, p, buf, size+1, es, pos) {
		return 0, false
	}
	data, _, _, _ := m.stdHdr(t, p, pos)
	dst := data + i*uint64(es)
	if layout >= 0 {
		if !m.copyDeep(t, dst, src, layout, pos) {
			return 0, false
		}
	} else if !m.copyMem(t, dst, src, es, pos, false) {
		return 0, false
	}
	return dst, true
}

// assocInsert inserts the element at src unless its key is present: the
// element with the key, and whether it was inserted.
func (m *Machine) assocInsert(t *Thread, obj, src uint64, k, n, es, layout int, pos int32) (uint64, bool, bool) {
	data, size, _, good := m.stdHdr(t, obj, pos)
	if !good {
		return 0, false, false
	}
	i, eq, good := m.assocSearch(t, data, size, src, k, n, es, false, pos)
	if !good {
		return 0, false, false
	}
	if eq && k&akMulti != 0 {
		// a multimap's new element goes after those of an equal key
		i, _, good = m.assocSearch(t, data, size, src, k, n, es, true, pos)
		if !good {
			return 0, false, false
		}
	} else if eq {
		return data + i*uint64(es), false, true
	}
	p, good := m.assocInsertAt(t, obj, src, i, es, layout, pos)
	return p, true, good
}

func initLibMap() {
	for name, s := range map[string]*bsig{
		"__assoc_range":  sig(tVoidP, hostSide, tAny, tAny, tAny, tAny, tAny, tAny, tAny),
		"__assoc_find":   sig(tVoidP, hostSide, tAny, tAny, tAny, tAny, tAny, tAny, tAny),
		"__assoc_insert": sig(tVoidP, hostSide, tAny, tAny, tAny, tAny, tAny, tAny, tAny),
		"__assoc_erase":  sig(tVoidP, hostSide, tAny, tAny, tAny, tAny, tAny, tAny, tAny),
	} {
		builtinSigs[name] = s
	}
	// (container, key, key kind, key size, element size, layout, mode)
	defb("__assoc_find", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// mode 0 find (end if absent), 1 operator[] (inserts), 2
		// lower_bound, 3 upper_bound, 4 count, 5 at (absent: an error)
		data, size, _, good := m.stdHdr(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		k, n, es, mode := int(a[2]), int(a[3]), int(a[4]), a[6]
		i, eq, good := m.assocSearch(t, data, size, a[1], k, n, es, mode == 3, pos)
		if !good {
			return 0, stFault
		}
		switch mode {
		case 0:
			if !eq {
				i = size
			}
		case 1:
			if !eq {
				// a value-initialized element with the key
				tmp := make([]byte, es)
				kb, good := m.resolve(t, a[1], n, pos, false, false)
				if !good {
					return 0, stFault
				}
				copy(tmp, kb)
				o := m.newObject(es, SpaceHost, "", pos)
				if m.failed {
					return 0, stFault
				}
				copy(o.Data, tmp)
				o.init.setAll()
				if k == akString {
					// the key is a std::string: its own buffer
					kd, _, good := m.stdBytes(t, a[1], 1, pos)
					if !good || !m.stdSetBytes(t, ptrOf(o, 0), kd, uint64(len(kd)), 1, true, pos) {
						return 0, stFault
					}
				}
				p, good := m.assocInsertAt(t, a[0], ptrOf(o, 0), i, es, -1, pos)
				if !good {
					return 0, stFault
				}
				m.release(o) // its bytes (and the key's buffer) are the element's now
				return ok(p)
			}
		case 4:
			if k&akMulti != 0 && eq {
				// a multimap's count: up to the first greater key
				j, _, good := m.assocSearch(t, data, size, a[1], k, n, es, true, pos)
				if !good {
					return 0, stFault
				}
				return ok(j - i)
			}
			return ok(b2u(eq))
		case 5:
			if !eq {
				m.fault(t, pos, "C0403", "std::map::at: the key is not in the map (std::out_of_range)")
				return 0, stFault
			}
		}
		return ok(data + i*uint64(es))
	})
	defb("__assoc_insert", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// the element at a[1] (its key first) unless its key is present;
		// a[6], when not 0, receives pair<iterator, bool>
		p, inserted, good := m.assocInsert(t, a[0], a[1], int(a[2]), int(a[3]), int(a[4]), int(int64(a[5])), pos)
		if !good {
			return 0, stFault
		}
		if a[6] != 0 && (!m.store(t, a[6], mU64, p, pos) || !m.store(t, a[6]+8, mU8, b2u(inserted), pos)) {
			return 0, stFault
		}
		return ok(p)
	})
	defb("__assoc_range", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// (container, first, last, key kind, key size, element size, layout)
		es := uint64(a[5])
		if a[2] < a[1] || a[1]>>32 != a[2]>>32 && a[1] != a[2] || (a[2]-a[1])%es != 0 {
			m.fault(t, pos, "C0403", "the range [first, last) is not a range of one array")
			return 0, stFault
		}
		for p := a[1]; p < a[2]; p += es {
			if _, _, good := m.assocInsert(t, a[0], p, int(a[3]), int(a[4]), int(es), int(int64(a[6])), pos); !good {
				return 0, stFault
			}
		}
		return ok(0)
	})
	defb("__assoc_erase", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// mode 0: erase(key), the count erased; mode 1: erase(iterator
		// a[1]), the iterator after it
		data, size, _, good := m.stdHdr(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		k, n, es := int(a[2]), int(a[3]), int(a[4])
		var i uint64
		if a[6] == 1 {
			off := a[1] - data
			if a[1]>>32 != data>>32 || data == 0 || off%uint64(es) != 0 || off/uint64(es) >= size {
				m.fault(t, pos, "C0403", "erase of an iterator that is not an element of this container")
				return 0, stFault
			}
			i = off / uint64(es)
		} else {
			j, eq, good := m.assocSearch(t, data, size, a[1], k, n, es, false, pos)
			if !good {
				return 0, stFault
			}
			if !eq {
				return ok(0)
			}
			i = j
		}
		end := i + 1
		if a[6] == 0 && k&akMulti != 0 {
			// a multimap's erase(key): every element of the key
			j, _, good := m.assocSearch(t, data, size, a[1], k, n, es, true, pos)
			if !good {
				return 0, stFault
			}
			end = j
		}
		old, _, good := m.stdBytes(t, a[0], es, pos)
		if !good {
			return 0, stFault
		}
		buf := append(append([]byte(nil), old[:i*uint64(es)]...), old[end*uint64(es):]...)
		if !m.assocReplace(t, a[0], buf, size-(end-i), es, pos) {
			return 0, stFault
		}
		if a[6] == 0 {
			return ok(end - i)
		}
		nd, _, _, _ := m.stdHdr(t, a[0], pos)
		return ok(nd + i*uint64(es))
	})
}

// containerMember resolves a member type of a std container other than
// vector (std::map<K, V>::iterator, ...; C++ [container.requirements]):
// the iterators are the model's pointers to the elements (const_iterator
// to const ones), value_type the element (a map's std::pair<const K, V>),
// key_type and mapped_type the template arguments, size_type unsigned
// long, difference_type long.
func (c *compiler) containerMember(te *syntax.TypeExpr) *Type {
	ct := *te
	ct.Member = ""
	t := c.resolve(&ct)
	if t.Kind != Struct || t.std == 0 || t.stdElem == nil {
		return tInt // (the container's own error was reported)
	}
	switch te.Member {
	case "iterator", "const_iterator":
		p := iterTo(t.stdElem, t.Name) // iter.go
		p.cst = te.Member == "const_iterator"
		return p
	case "value_type":
		return t.stdElem
	case "size_type":
		return tULong
	case "difference_type":
		return tLong
	case "key_type":
		return c.resolve(te.TArgs[0])
	case "mapped_type":
		if len(te.TArgs) == 2 && (strings.HasSuffix(te.Name, "map")) {
			return c.resolve(te.TArgs[1])
		}
	}
	c.errorf(te.Pos, "C0306", "no member type %s in %s", te.Member, t)
	return tInt
}
