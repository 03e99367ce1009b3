package gcpolicy

import (
	"os"
	"runtime"
	"sync"
	"testing"
)

// TestBetweenFromSeveralGoroutines: an embedding may run checks from
// several goroutines at once; Between's state is shared by them (under its
// mutex), so the run must be free of data races (scripts/test.sh runs this
// package under -race where the toolchain supports it), still collect
// between checks, and still read the heap on few calls.
func TestBetweenFromSeveralGoroutines(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set: the policy leaves the runtime alone")
	}
	if !Set() {
		t.Fatal("Set() = false without GOGC and GOMEMLIMIT")
	}
	small()
	runtime.GC()
	mu.Lock()
	lastInUse, growth, skip, since = 0, 0, 0, 0
	r0 := reads
	mu.Unlock()
	const workers, checks, per = 4, 400, 48 << 10
	f0, _ := cycles()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var keep [][]byte
			for i := 0; i < checks; i++ {
				Between()
				keep = keep[:0]
				for b := 0; b < per; b += 16 << 10 {
					keep = append(keep, make([]byte, 16<<10))
				}
			}
			runtime.KeepAlive(keep)
		}()
	}
	wg.Wait()
	f1, _ := cycles()
	mu.Lock()
	n := reads - r0
	mu.Unlock()
	// 1 600 checks of 48 KB are about 77 MB: several heap goals of small
	// mode's 16 MB minimum, so Between must have collected.
	if f1-f0 < 2 {
		t.Fatalf("%d forced collections over %d concurrent checks of 48 KB, want >= 2", f1-f0, workers*checks)
	}
	if n > workers*checks/4 {
		t.Fatalf("%d heap readings over %d calls, want at most a quarter", n, workers*checks)
	}
}
