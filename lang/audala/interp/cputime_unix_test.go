//go:build unix

package interp

import (
	"syscall"
	"time"
)

// cpuNow is the process's user+system CPU time: benchmark ratios taken in
// CPU time are steadier than wall-clock ones on a loaded machine (the
// build machine is shared by many jobs).
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
