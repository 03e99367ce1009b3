package gcpolicy

import (
	"math"
	"os"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

// TestSmallThenLarge: Set puts the process in small mode (GOGC=400, the
// 512 MB soft limit); the first collection that finds more than LargeLive
// bytes live switches it to Go's defaults (GOGC=100, no limit).
func TestSmallThenLarge(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set: the policy leaves the runtime alone")
	}
	if !Set() || !Set() {
		t.Fatal("Set() = false without GOGC and GOMEMLIMIT")
	}
	small() // again, should -count have run this test before
	if got := gcPercent(); got != SmallPercent {
		t.Fatalf("GOGC after Set = %d, want %d", got, SmallPercent)
	}
	if got := memLimit(); got != SmallLimit {
		t.Fatalf("memory limit after Set = %d, want %d", got, SmallLimit)
	}
	// A small live heap: collections leave small mode in force.
	runtime.GC()
	time.Sleep(10 * time.Millisecond) // the finalizer goroutine re-arms
	runtime.GC()
	if got := gcPercent(); got != SmallPercent {
		t.Fatalf("GOGC after a small collection = %d, want %d", got, SmallPercent)
	}
	// A live heap above LargeLive: large mode.
	big := make([]*[1 << 20]byte, 0, LargeLive>>20+8)
	for i := 0; i < cap(big); i++ {
		big = append(big, new([1 << 20]byte))
	}
	deadline := time.Now().Add(5 * time.Second)
	for gcPercent() != 100 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(big)
	if got := gcPercent(); got != 100 {
		t.Fatalf("GOGC with %d MB live = %d, want 100", len(big), got)
	}
	if got := memLimit(); got != math.MaxInt64 {
		t.Fatalf("memory limit in large mode = %d, want none (MaxInt64)", got)
	}
}

// gcPercent and memLimit read the settings without changing them (the
// policy's finalizer may change them concurrently).
func gcPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

func memLimit() int64 {
	s := []metrics.Sample{{Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}
