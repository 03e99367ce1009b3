package testmain_test

import (
	"flag"
	"os"
	"runtime"
	"testing"

	"weft.dev/weft/internal/testmain"
)

func TestMain(m *testing.M) { os.Exit(testmain.Run(m)) }

// TestSampling: under testmain.Run the runtime samples no allocation,
// unless -test.memprofile asked for a profile (go test -memprofile F
// ./internal/testmain runs the other case).
func TestSampling(t *testing.T) {
	profiling := flag.Lookup("test.memprofile").Value.String() != ""
	if got := runtime.MemProfileRate != 0; got != profiling {
		t.Fatalf("MemProfileRate %d with -test.memprofile=%q", runtime.MemProfileRate, flag.Lookup("test.memprofile").Value.String())
	}
}
