package sched

import (
	"bytes"
	"fmt"
	"runtime/metrics"
	"time"

	"go.starlark.net/starlark"

	"weft.dev/weft/diag"
)

// Default resource limits of a schedule script besides its steps (issue
// 14): Starlark counts steps, not time or memory, and a few steps can
// square a big integer for minutes or double a list until memory runs out.
const (
	DefaultTimeout = 30 * time.Second
	DefaultMemory  = 256 << 20 // bytes of heap growth while the script runs
)

// heapMetric is the live heap in bytes (runtime/metrics; reading it does
// not stop the world).
const heapMetric = "/memory/classes/heap/objects:bytes"

// watch cancels thread once the script has run for longer than timeout or
// the heap has grown by more than maxHeap bytes since it started; the
// cancellation reason names the flag that raises the limit. Starlark
// stops at its next step, so the limits are approximate: the operation
// running at the deadline finishes first (squaring a big integer: at most
// about as long again), and one allocation larger than what is left (a
// list repeated up to Starlark's own cap of 2^30 elements) is not
// intercepted. Real scripts take a second and a few megabytes. The
// returned stop ends the watch.
func watch(thread *starlark.Thread, timeout time.Duration, maxHeap uint64) (stop func()) {
	sample := []metrics.Sample{{Name: heapMetric}}
	heap := func() uint64 {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return sample[0].Value.Uint64()
	}
	base := heap()
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		deadline := time.After(timeout)
		for {
			select {
			case <-done:
				return
			case <-deadline:
				thread.Cancel(fmt.Sprintf("the script ran longer than its time limit of %v (--script-timeout raises it)", timeout))
				return
			case <-tick.C:
				if h := heap(); h > base && h-base > maxHeap {
					thread.Cancel(fmt.Sprintf("the script allocated more than its memory limit of %d bytes (--script-memory raises it)", maxHeap))
					return
				}
			}
		}
	}()
	return func() { close(done) }
}

// nulByte reports a NUL byte in the script: Starlark's scanner would stop
// there and silently ignore the rest of the file (issue 14).
func nulByte(script *diag.File, errs *diag.List) bool {
	if i := bytes.IndexByte(script.Src, 0); i >= 0 {
		errs.Errorf(script.At(i), CodeScript, "schedule script: NUL byte (the rest of the file would be ignored; is this a text file?)")
		return true
	}
	return false
}
