package gcpolicy

import (
	"runtime"
	"runtime/metrics"
)

// heapSamples are what Between reads: the bytes of heap objects (live, and
// dead ones not yet swept), the heap goal, and the live heap the last
// collection marked.
var heapSamples = []metrics.Sample{
	{Name: "/memory/classes/heap/objects:bytes"},
	{Name: "/gc/heap/goal:bytes"},
	{Name: "/gc/heap/live:bytes"},
}

// lastInUse is the heap in use at the previous Between; growth is how much
// the last check added to it (0 until known).
var lastInUse, growth uint64

// Between is called by a process that runs many checks, at the start of
// each (the weft driver's check verb): it collects now, synchronously,
// when the check about to run would likely reach the heap goal and so
// start a collection in its middle.
//
// Why (issue 13, docs/weft-sync.md "Stop 36: the collector between
// checks"): with one P the runtime's concurrent collection gives its mark
// worker a quarter of the CPU, so a cycle stays open for several
// milliseconds, tens of small checks; while it is open every pointer
// store goes through the write barrier and every allocation is born
// marked, which cost a small check about a quarter of its instructions,
// and the memory allocated during the cycle survives it, which inflates
// the next cycle's marking. A collection between checks has no mutator
// beside it: the mark worker gets the whole CPU and finishes in a fraction
// of a millisecond, and the check that follows runs with the barrier off.
//
// Only in small mode: in large mode (a live heap above LargeLive) a check
// allocates far more than a check's boundary can foresee, and the runtime's
// own pacing is the right one. Nothing when the policy is not in force
// (GOGC or GOMEMLIMIT set by the user).
func Between() {
	if !applied || large.Load() {
		return
	}
	metrics.Read(heapSamples)
	inUse, goal, marked := heapSamples[0].Value.Uint64(), heapSamples[1].Value.Uint64(), heapSamples[2].Value.Uint64()
	if lastInUse != 0 && inUse > lastInUse {
		growth = inUse - lastInUse
	}
	// The runtime starts its cycle before the goal: its trigger lies
	// between 70% and 95% of the way from the marked heap to the goal (Go's
	// pacer, runtime/mgcpacer.go: minTriggerFrac, maxTriggerFrac), so the
	// earliest is the bound. Twice the last check's growth: room for a
	// check somewhat larger than the last.
	trigger := marked + (goal-marked)*7/10
	if goal < marked {
		trigger = goal
	}
	if growth != 0 && inUse+2*growth >= trigger {
		runtime.GC()
		metrics.Read(heapSamples)
		inUse = heapSamples[0].Value.Uint64()
	}
	lastInUse = inUse
}
