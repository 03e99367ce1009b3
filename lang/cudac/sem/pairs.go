package sem

import (
	"fmt"
	"reflect"
	"sort"

	"weft.dev/weft/diag"
	"weft.dev/weft/gpu"
	"weft.dev/weft/lang/cudac/syntax"
)

// Two-thread predicates of GPUVerify's annotation language, evaluated over
// the threads a run ran (issue 16 §1; annot.go says where they count).
// GPUVerify proves an annotation for two arbitrary threads; a run has all
// of its threads' values, so __uniform_int(x) at a site holds when every
// thread that evaluated the site for the k-th time got the same x, and
// __distinct_int(x) when no two did. The predicate yields 1 when evaluated
// (the enclosing annotation goes on), and the comparison happens when the
// kernel has finished: a violation is reported at the annotation, as its
// failure (C0621) or, for a kernel's precondition, as the exclusion of the
// run (C0620). Only positive occurrences are checked this way (pairsOnly):
// making a conjunct true cannot make a false annotation true.

var pairPredicates map[string]bool

// initPairPredicates builds pairPredicates (tables.go).
func initPairPredicates() {
	pairPredicates = map[string]bool{
		"__uniform_int": true, "__uniform_bool": true, "__uniform_unsigned": true,
		"__distinct_int": true, "__distinct_bool": true, "__distinct_unsigned": true,
	}
}

// pairEncl is the annotation a pair predicate belongs to.
type pairEncl struct {
	name string // __assert, __requires, ...
	code string // C0621, or C0620 for a kernel's precondition
	pos  int32
	at   diag.Pos
}

// pairSite is one pair predicate in the program.
type pairSite struct {
	encl     *pairEncl
	pred     string
	distinct bool
	enabled  bool // its argument is __enabled(): every thread must reach it
	oth      bool // an annotation judged over pairs (others.go), with nslot values
	nslot    int
}

type pairKey struct {
	site  int32
	visit int32
}

type pairRec struct {
	val        uint64
	block, tid int32
}

// pairLog holds the evaluations of a run.
type pairLog struct {
	recs      map[pairKey][]pairRec
	n         int
	truncated bool
	// annotations judged over pairs (others.go)
	othCur    map[*Thread][]*othCur
	othRecs   map[pairKey]*othGroup
	othChecks int
	intra     bool // only pairs in one block (--only-intra-group)
	// small values of bodiless functions (SmallNondetSeed, annot.go):
	// each call site's, and the calls each thread made at each
	sites map[int32]uint64
	calls map[nondetKey]uint64
	// growShared: a kernel-only launch with no --shmem: the extent of
	// extern __shared__ memory is unknown, it grows (kernelonly.go)
	growShared bool
}

// maxPairRecs bounds the evaluations kept (beyond, fewer are compared).
const maxPairRecs = 1 << 18

// pairsOnly reports whether e may be evaluated with its pair predicates
// checked at the end: every pair predicate occurs where it is monotone
// (mono), its argument holds no predicate, and no other group predicate
// (annotPure, save __enabled and __return_val_*) occurs.
func pairsOnly(e syntax.Expr, mono bool) bool {
	switch x := e.(type) {
	case *syntax.Call:
		if n, ok := x.Fun.(*syntax.Name); ok {
			switch {
			case pairPredicates[n.Name]:
				return mono && len(x.Args) == 1 && !mentionsUnchecked(reflect.ValueOf(x.Args))
			case n.Name == "__implies" && len(x.Args) == 2:
				return pairsOnly(x.Args[0], false) && pairsOnly(x.Args[1], mono)
			}
		}
	case *syntax.Binary:
		switch x.Op {
		case "&&", "||", "&", "|":
			return pairsOnly(x.X, mono) && pairsOnly(x.Y, mono)
		}
	}
	return !mentionsUnchecked(reflect.ValueOf(e))
}

// pairCall compiles a pair predicate: its argument, its site and the
// record builtin. Outside an annotation that checks it, it yields 1.
func (c *compiler) pairCall(name string, e *syntax.Call) *Type {
	if !pairPredicates[name] {
		return nil
	}
	if c.ann.encl == nil || len(e.Args) != 1 {
		for _, a := range e.Args {
			c.expr(a)
			c.emit(OpPop, 0, 0, syntax.PosOf(a))
		}
		c.emit(OpConst, 0, 1, e.Pos)
		return tInt
	}
	site := &pairSite{encl: c.ann.encl, pred: name, distinct: name[2] == 'd'}
	if a, ok := e.Args[0].(*syntax.Call); ok {
		if n, ok := a.Fun.(*syntax.Name); ok && n.Name == "__enabled" {
			site.enabled = true
		}
	}
	c.prog.pairSites = append(c.prog.pairSites, site)
	if t := c.expr(e.Args[0]); name == "__uniform_bool" || name == "__distinct_bool" {
		// compare truth values
		if t.isFloat() {
			c.emit(OpConst, 0, int64(bits(0)), e.Pos)
			c.emit(OpFNe, 0, 0, e.Pos)
		} else {
			c.emit(OpConst, 0, 0, e.Pos)
			c.emit(OpNe, 0, 0, e.Pos)
		}
	}
	c.emit(OpConst, 0, int64(len(c.prog.pairSites)-1), e.Pos)
	c.emit(OpBuiltin, builtinIndex["__pair_record"], 2, e.Pos)
	return tInt
}

func initPairs() {
	builtinSigs["__pair_record"] = sig(tInt, deviceSide, tAny, tAny)
	defb("__pair_record", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if t.block == nil {
			return ok(1)
		}
		if m.pairs.n >= maxPairRecs {
			// later evaluations are not compared; a group may now miss
			// threads, so reaching a site no longer says anything
			m.pairs.truncated = true
			return ok(1)
		}
		site := int32(a[1])
		if t.visits == nil {
			t.visits = map[int32]int32{}
		}
		v := t.visits[site]
		t.visits[site] = v + 1
		if m.pairs.recs == nil {
			m.pairs.recs = map[pairKey][]pairRec{}
		}
		k := pairKey{site, v}
		m.pairs.recs[k] = append(m.pairs.recs[k], pairRec{a[0], t.block.id, t.tid})
		m.pairs.n++
		return ok(1)
	})
}

// checkPairs compares what each pair predicate site got, once the kernel
// has finished (RunKernel), and reports the first violation of each
// annotation.
func (m *Machine) checkPairs(gdim, bdim gpu.Dim3) {
	if len(m.pairs.recs) == 0 || m.failed {
		return
	}
	keys := make([]pairKey, 0, len(m.pairs.recs))
	for k := range m.pairs.recs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].site != keys[j].site {
			return keys[i].site < keys[j].site
		}
		return keys[i].visit < keys[j].visit
	})
	who := func(r pairRec) string {
		return fmt.Sprintf("thread %s of block %s", dimStr(delinear(int(r.tid), bdim), bdim), dimStr(delinear(int(r.block), gdim), gdim))
	}
	ran := m.threadsRun(gdim, bdim)
	done := map[*pairEncl]bool{}
	for _, k := range keys {
		site := m.prog.pairSites[k.site]
		if done[site.encl] {
			continue
		}
		recs := m.pairs.recs[k]
		msg := ""
		switch {
		case site.enabled && len(recs) < ran && !m.pairs.truncated:
			msg = fmt.Sprintf("%s(__enabled()) is false: %s reached it and threads of the run did not", site.pred, who(recs[0]))
		case site.distinct:
			seen := map[uint64]pairRec{}
			for _, r := range recs {
				if o, dup := seen[r.val]; dup {
					msg = fmt.Sprintf("%s is false: %s and %s have the same value %d", site.pred, who(o), who(r), int64(r.val))
					break
				}
				seen[r.val] = r
			}
		default:
			for _, r := range recs[1:] {
				if r.val != recs[0].val {
					msg = fmt.Sprintf("%s is false: %s has %d and %s has %d", site.pred, who(recs[0]), int64(recs[0].val), who(r), int64(r.val))
					break
				}
			}
		}
		if msg != "" {
			done[site.encl] = true
			verdict := "violated"
			if site.encl.code == "C0620" {
				verdict = "false: this launch and these inputs are outside what the kernel requires"
			}
			m.diags.Errorf(m.pos(site.encl.pos), site.encl.code, "%s %s (%s)", site.encl.name, verdict, msg)
		}
	}
}

// threadsRun is the number of threads the kernel-only launch ran.
func (m *Machine) threadsRun(gdim, bdim gpu.Dim3) int {
	if m.opts.Blocks != nil {
		n := 0
		for _, b := range m.opts.Blocks {
			if b >= 0 && b < gdim.Size() {
				n++
			}
		}
		return n * bdim.Size()
	}
	return gdim.Size() * bdim.Size()
}

// delinear turns a linear id into a position in ext.
func delinear(i int, ext gpu.Dim3) gpu.Dim3 {
	return gpu.Dim3{X: i % ext.X, Y: i / ext.X % ext.Y, Z: i / (ext.X * ext.Y)}
}
