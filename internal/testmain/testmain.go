// Package testmain is the TestMain of Weft's long-running test packages:
// it turns the runtime's allocation sampling off unless a memory profile
// was asked for (-test.memprofile), then runs the tests.
//
// Why: a test binary links the memory profiler, so each sampled
// allocation records its stack in a bucket that is never freed, and every
// collection flushes all the buckets. The randomized tests of the
// checkers and interpreters make ever more distinct stacks (recursion
// over random programs), so the flush grows with the run: a CPU profile of
// lang/weft/amir's tests (stop 43) found runtime.mProf_Flush at 25% of the
// package's CPU, and with sampling off the package took 284 s of CPU
// instead of 448 s. `weft check` itself runs with the rate at 0 (its
// linker drops the profiler), so no test loses anything it measures;
// testing.AllocsPerRun and the benchmarks' allocation counts read the
// runtime's statistics, not the profile.
package testmain

import (
	"flag"
	"runtime"
	"testing"
)

// Run parses the test flags, turns allocation sampling off unless
// -test.memprofile names a file, and runs m, returning its exit code:
//
//	func TestMain(m *testing.M) { os.Exit(testmain.Run(m)) }
func Run(m *testing.M) int {
	flag.Parse()
	if f := flag.Lookup("test.memprofile"); f == nil || f.Value.String() == "" {
		runtime.MemProfileRate = 0
	}
	return m.Run()
}
