//go:build !unix

package interp

import "time"

// cpuNow is unavailable here: the cpu-ns/op metric reads 0.
func cpuNow() time.Duration { return 0 }
