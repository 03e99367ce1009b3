//go:build !unix

package cudagen

func cpuSeconds() float64 { return 0 }
