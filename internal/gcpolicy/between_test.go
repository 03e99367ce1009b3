package gcpolicy

import (
	"os"
	"runtime"
	"runtime/metrics"
	"testing"
)

// sink keeps each simulated check's garbage reachable until the next one,
// as a check's own allocations are until it returns.
var sink [][]byte

// cycles returns the forced and automatic collections so far.
func cycles() (forced, auto uint64) {
	s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}, {Name: "/gc/cycles/automatic:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// simulate runs n checks of about per bytes each, calling Between before
// each, and returns the forced and automatic collections they caused.
func simulate(n, per int) (forced, auto uint64) {
	f0, a0 := cycles()
	for i := 0; i < n; i++ {
		Between()
		sink = sink[:0]
		for b := 0; b < per; b += 16 << 10 {
			sink = append(sink, make([]byte, 16<<10))
		}
	}
	f1, a1 := cycles()
	return f1 - f0, a1 - a0
}

// TestBetweenCollectsBetweenChecks: in small mode, a run of equal checks
// is collected only between checks (forced collections by Between, none
// started by the runtime in a check's middle); in large mode, and with
// the policy off, Between never collects.
func TestBetweenCollectsBetweenChecks(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set: the policy leaves the runtime alone")
	}
	if !Set() {
		t.Fatal("Set() = false without GOGC and GOMEMLIMIT")
	}
	small()
	runtime.GC()
	lastInUse, growth = 0, 0
	// 200 checks of 512 KB: about 100 MB, several heap goals' worth.
	forced, auto := simulate(200, 512<<10)
	if forced < 3 || auto != 0 {
		t.Fatalf("small mode: %d forced and %d automatic collections over 200 checks of 512 KB, want >= 3 forced and 0 automatic", forced, auto)
	}
	// 2000 checks of 48 KB, as a small kernel's: the heap is read on few
	// of them, and still no cycle starts in a check.
	r0 := reads
	forced, auto = simulate(2000, 48<<10)
	if forced < 3 || auto != 0 || reads-r0 > 2000/8 {
		t.Fatalf("small checks: %d forced and %d automatic collections, %d readings over 2000 checks of 48 KB, want >= 3 forced, 0 automatic and at most 250 readings", forced, auto, reads-r0)
	}

	// Large mode: the runtime paces alone.
	large.Store(true)
	forced, _ = simulate(200, 512<<10)
	large.Store(false)
	if forced != 0 {
		t.Fatalf("large mode: Between forced %d collections, want 0", forced)
	}

	// The policy not in force (GOGC or GOMEMLIMIT set by the user).
	applied.Store(false)
	forced, _ = simulate(200, 512<<10)
	applied.Store(true)
	if forced != 0 {
		t.Fatalf("policy off: Between forced %d collections, want 0", forced)
	}
	sink = nil
}
