package gpucheck

import (
	"weft.dev/weft/lang/weft/syntax"
)

// The file's constants without a map of the check's own where the
// checked program's is the same (issue 13, stop 36: docs/weft-sync.md
// "Stop 36: static36").
//
// The constants a check evaluates with (consts.vals, Result.Consts) are
// the file's globals this package evaluates, each in declaration order
// with the ones before it, then package check's constants over them
// (Prog.Consts), then the command line's NAME=VALUE sizes over both. The
// map was made and filled for every check: on per_cta_alloc (rows 5-8:
// one constant NCTA, given again on the command line) a map made, three
// assignments and two map iterations, 1.8 K instructions of the checker's
// 20 K. Yet where every global this package evaluates is one of package
// check's constants and every size agrees with package check's value,
// the map it would build is Prog.Consts, key for key, value for value:
// the check reads that one (no reader writes into Result.Consts:
// syncheck's conversion and distmem only look names up). Otherwise the
// map is built as before. The globals are evaluated in order either way,
// their values kept in consts.local until then (a name set again is
// found last-first there, as a map assignment overwrote it), so that a
// global naming an earlier one evaluates as it did.
// TestFileConstsMatchMap compares the two on the repository's programs
// with their sizes, changed sizes and sizes of names the file does not
// declare.

// fileConsts sets c.c's constants for f and opts, and c.warpCf's
// expressions (the globals it does not evaluate).
func (c *checker) fileConsts(f *syntax.File, opts Options) {
	k := c.c
	// The globals are evaluated in a constant set of their own on the
	// stack, its list in an array there for the first few (k has
	// neither values nor a parent yet, so it would evaluate them alike;
	// its list had grown on the heap for every check).
	var buf [8]constVal
	g0 := consts{local: buf[:0]}
	for _, d := range f.Decls {
		g, ok := d.(*syntax.Global)
		if !ok || len(g.Names) != len(g.Values) {
			continue
		}
		for i, n := range g.Names {
			if v, ok := g0.eval(g.Values[i]); ok {
				g0.local = append(g0.local, constVal{n.Name, v})
			} else {
				if c.warpCf == nil {
					c.warpCf = map[string]syntax.Expr{}
				}
				c.warpCf[n.Name] = g.Values[i]
			}
		}
	}
	local := g0.local
	if m, hit, ok := takenMap(local, opts); ok && !constMapsOff {
		// takenMap looked the first global up in m: its value is
		// lookup's first hit.
		k.vals, k.hit = m, hit
		return
	}
	for _, cv := range local {
		k.set(cv.name, cv.val)
	}
	if opts.Prog != nil {
		for name, v := range opts.Prog.Consts {
			k.set(name, v)
		}
	}
	for name, v := range opts.Sizes {
		k.set(name, v)
	}
}

// sameAsProg reports whether the map fileConsts builds from local (the
// globals evaluated here) is opts.Prog.Consts: every name of local is
// one of its keys (its value then overwritten by Prog's), and every
// size has its value there.
func sameAsProg(local []constVal, opts Options) bool {
	pc := opts.Prog.Consts
	for _, cv := range local {
		if _, ok := pc[cv.name]; !ok {
			return false
		}
	}
	for name, v := range opts.Sizes {
		if pv, ok := pc[name]; !ok || pv != v {
			return false
		}
	}
	return true
}

// coveredBySizes reports whether the map fileConsts builds from local is
// opts.Sizes: every name of local and every constant of the program is
// also a size, so the sizes, set last, overwrite each of them, and the
// map holds the sizes' keys and values alone (issue 13, stop 41: rows
// 6 and 8 give NCTA=2 where the file says 1, and built a map of one
// constant in three assignments and two map iterations, 1.5 K
// instructions of the checker's 18.5 K). The driver makes its sizes
// once and no reader writes into them or into Result.Consts.
func coveredBySizes(local []constVal, opts Options) bool {
	sz := opts.Sizes
	for _, cv := range local {
		if _, ok := sz[cv.name]; !ok {
			return false
		}
	}
	if opts.Prog != nil {
		if len(opts.Prog.Consts) > len(sz) {
			return false
		}
		for name := range opts.Prog.Consts {
			if _, ok := sz[name]; !ok {
				return false
			}
		}
	}
	return true
}

// takenMap is the map fileConsts would build from the globals local,
// when it is one of opts's own: the program's constants (sameAsProg) or
// the sizes (coveredBySizes); ok is false otherwise. hit is the first
// global's entry in that map where it looked it up (name "": none). For a few globals
// both tests are made in one pass over them, each name looked up once
// in each map, and a map whose count of keys is the globals' count of
// distinct names, each a key, has exactly their names as keys, so it
// need not be walked (a walk starts at a random entry: 270 instructions
// each, two walks and eight lookups on rows 6 and 8; stop 41). Anything
// else takes the two tests in full.
func takenMap(local []constVal, opts Options) (map[string]int64, constVal, bool) {
	if len(local) > 8 {
		if opts.Prog != nil && sameAsProg(local, opts) {
			return opts.Prog.Consts, constVal{}, true
		}
		if len(opts.Sizes) > 0 && coveredBySizes(local, opts) {
			return opts.Sizes, constVal{}, true
		}
		return nil, constVal{}, false
	}
	var pc map[string]int64
	if opts.Prog != nil {
		pc = opts.Prog.Consts
	}
	sz := opts.Sizes
	// allP, allS: every global is a constant of the program, a size;
	// same: each global that is both has one value in both.
	allP, allS, same, distinct := true, true, true, 0
	// pHit, sHit: the first global's entries in pc and sz.
	var pHit, sHit constVal
	for i, cv := range local {
		pv, pok := pc[cv.name]
		sv, sok := sz[cv.name]
		if i == 0 && pok {
			pHit = constVal{cv.name, pv}
		}
		if i == 0 && sok {
			sHit = constVal{cv.name, sv}
		}
		allP, allS = allP && pok, allS && sok
		if pok && sok && pv != sv {
			same = false
		}
		seen := false
		for _, prev := range local[:i] {
			if prev.name == cv.name {
				seen = true
				break
			}
		}
		if !seen {
			distinct++
		}
	}
	sizesAreGlobals := allS && len(sz) == distinct
	if opts.Prog != nil && allP {
		// sameAsProg: then every size a constant of the program, of
		// the same value; sizes that are the globals' names were all
		// compared above.
		if len(sz) == 0 || sizesAreGlobals && same {
			return pc, pHit, true
		}
		if !sizesAreGlobals && sameAsProg(local, opts) {
			return pc, pHit, true
		}
	}
	if len(sz) > 0 && allS {
		// coveredBySizes: then every constant of the program a size;
		// a program whose constants are the globals' names has them.
		if opts.Prog == nil || len(pc) == 0 || allP && len(pc) == distinct {
			return sz, sHit, true
		}
		if coveredBySizes(local, opts) {
			return sz, sHit, true
		}
	}
	return nil, constVal{}, false
}

// constMapsOff makes every check build its constants' map (set by the
// tests that compare the two ways).
var constMapsOff bool
