//go:build unix

package cudagen

import "syscall"

// cpuSeconds is the user+system CPU time of this process: the machine the
// benchmarks run on may be shared, and CPU time is what "one core" means.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
