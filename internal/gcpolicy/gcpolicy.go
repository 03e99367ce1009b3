// Package gcpolicy is the weft command's garbage-collector setting (issue
// 13): a `weft check` of a small kernel allocates a few hundred KB over a
// live heap of 1-2 MB (the parsed standard library), and at Go's default
// (GOGC=100, a 4 MB minimum heap goal) about half of its CPU time went to
// the collector, mostly as mark assists in the allocating goroutine.
//
// The policy trades memory for that time while the heap is small, and is
// Go's default once it is not:
//
//   - small mode, from the start: GOGC=400 (the minimum heap goal becomes
//     16 MB, so a small check collects rarely or never), guarded by a soft
//     memory limit of SmallLimit, so that a heap that grows suddenly is
//     collected at that size rather than at 5x its live size;
//   - large mode, after the first collection that finds more than
//     LargeLive bytes live: GOGC=100 and no memory limit, the runtime's
//     defaults, so the big sync checks (hundreds of MB of abstract-machine
//     state) keep Go's usual 2x heap bound and never run against the limit.
//
// In small mode a process that runs many checks (bench/syncref/weftime,
// the reference's pytest process's counterpart; any in-process driver)
// also collects between checks rather than in their middle: Between,
// called at the start of each check, runs the collection synchronously
// when the check about to run would reach the runtime's trigger (stop 36).
//
// GOGC or GOMEMLIMIT in the environment means the user chose: Set then
// changes nothing, and Between does nothing. docs/weft-sync.md ("Issue
// 13: small kernels, stop 26"; "Stop 36: the collector between checks")
// has the measurements.
package gcpolicy

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

const (
	// SmallPercent is GOGC in small mode.
	SmallPercent = 400
	// SmallLimit is the soft memory limit of small mode.
	SmallLimit = 512 << 20
	// LargeLive is the live heap after a collection above which the
	// policy switches to large mode for the rest of the process.
	LargeLive = 64 << 20
)

var (
	once sync.Once
	// applied is set once the policy is in force (Set); Between reads it
	// from whatever goroutine runs a check.
	applied atomic.Bool
	// large is set once the process is in large mode (by the finalizer
	// goroutine; Between reads it).
	large atomic.Bool
)

// Set applies the policy to this process (the first call; later ones
// change nothing). It reports whether the policy is in force: false when
// GOGC or GOMEMLIMIT is set.
func Set() bool {
	once.Do(func() {
		if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
			return
		}
		small()
		applied.Store(true)
	})
	return applied.Load()
}

// small enters small mode and watches the collections.
func small() {
	large.Store(false)
	debug.SetGCPercent(SmallPercent)
	debug.SetMemoryLimit(SmallLimit)
	watch()
}

// sentinel is unreachable from its allocation on: its finalizer runs after
// the first collection that follows, which is how the policy learns of
// each collection. (It holds a pointer and is larger than 16 bytes, so it
// is never a tiny allocation, whose finalizers may not run.)
type sentinel struct {
	p   *sentinel
	pad [2]uint64
}

var liveSample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

// watch arms a sentinel; after each collection it checks the live heap and
// either re-arms or switches to large mode for good.
func watch() {
	s := &sentinel{}
	runtime.SetFinalizer(s, func(*sentinel) {
		metrics.Read(liveSample)
		if v := liveSample[0].Value; v.Kind() == metrics.KindUint64 && v.Uint64() > LargeLive {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64) // no limit
			large.Store(true)
			return
		}
		watch()
	})
}
